// /login (spec §2, §8): email + password, 'Forgot password?', Google, 'Sign up'. An existing
// session goes to /dashboard; 'Email not confirmed' keeps the email and goes to /check-email.
// Two-factor accounts (issue 11 item 13): 401 TOTP_REQUIRED turns the same card into the code step,
// which sends the email and password again with the code (they stay in this component's memory,
// never in storage). /login?step=2fa is where Google sign-in of such an account lands: the code
// alone goes to POST /api/auth/2fa (the server remembers who for 10 minutes in a cookie).
import { asMe } from '../../account'
import { useEffect, useState } from 'react'
import { useSignals } from '@preact/signals-react/runtime'
import { Link, Redirect, useLocation, useSearch } from 'wouter'
import { api, ApiError, call, type Answer } from '../../client'
import { authStatus, initAuth, REGISTRATION_EMAIL_KEY, signedIn } from '../../session'
import { config } from '../../state'
import { toast } from '../../toast'
import type { SecondFactor } from '../../two-factor'
import { AuthLayout, FormError, GoogleAlternative } from './AuthLayout'
import { TwoFactorStep } from './TwoFactorStep'
import { returnPath, safePath } from '../../lib/return-to'

export function Login() {
  useSignals()
  const search = useSearch()
  useEffect(() => {
    void initAuth()
    if (new URLSearchParams(search).get('error') === 'google_failed')
      toast({ title: 'Google login failed', description: 'Could not sign in with Google.', variant: 'destructive' })
  }, [])
  if (authStatus.value === 'authenticated') return <Redirect to={safePath(new URLSearchParams(search).get('next')) ?? '/dashboard'} replace />
  // Separate components, so leaving ?step=2fa for the normal form starts from a clean state.
  return new URLSearchParams(search).get('step') === '2fa' ? <GoogleSecondStep /> : <PasswordLogin />
}

/** A sign-in answered with {user, access}: this tab is signed in and goes where it was headed (?next=) or to the dashboard. */
function useFinish() {
  const [, navigate] = useLocation()
  const search = useSearch()
  // An account without access yet (no row) signs in with access null: GET /api/me answers the access it derives.
  return async (res: Answer<typeof api.auth.login.post>) => {
    signedIn(asMe(res.access ? { ...res, access: res.access } : await call(api.me.get())))
    navigate(returnPath(search), { replace: true })
  }
}

function PasswordLogin() {
  const finish = useFinish()
  const [, navigate] = useLocation()
  const [email, setEmail] = useState('')
  const [password, setPassword] = useState('')
  const [step, setStep] = useState<'password' | 'code'>('password')
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)

  const login = (factor?: SecondFactor) => call(api.auth.login.post({ email, password, ...factor }))

  async function submit(e: React.FormEvent) {
    e.preventDefault()
    setError(null)
    if (!email.trim() || !password) return setError('You must provide either an email or phone number and a password')
    setBusy(true)
    try {
      await finish(await login())
    } catch (err) {
      if (err instanceof ApiError && err.code === 'TOTP_REQUIRED') {
        setStep('code')
        return
      }
      if (err instanceof ApiError && err.code === 'EMAIL_NOT_CONFIRMED') {
        sessionStorage.setItem(REGISTRATION_EMAIL_KEY, email.trim())
        toast({ title: 'Email not confirmed', description: 'Please check your email and confirm your account before logging in.', variant: 'destructive' })
        navigate('/check-email')
        return
      }
      const message =
        err instanceof ApiError
          ? err.message || 'Invalid login credentials. Please check your email and password.'
          : 'Failed to login. Please check your credentials.'
      setError(message)
      toast({ title: 'Login failed', description: message, variant: 'destructive' })
    } finally {
      setBusy(false)
    }
  }

  if (step === 'code')
    return (
      <AuthLayout title="Sign in">
        <TwoFactorStep
          submit={async (factor) => finish(await login(factor))}
          onBack={() => {
            // Start over: the password is asked again and forgotten now.
            setPassword('')
            setStep('password')
          }}
        />
      </AuthLayout>
    )

  return (
    <AuthLayout title="Sign in" subtitle={`Welcome back to ${config.value.appName}`}>
      <form onSubmit={submit} noValidate>
        <label>
          Email
          <input type="email" name="email" autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} required />
        </label>
        <label>
          Password
          <input type="password" name="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} required />
        </label>
        <p className="auth-links">
          <Link href="/forgot-password">Forgot password?</Link>
        </p>
        <FormError error={error} />
        <button type="submit" aria-busy={busy} disabled={busy}>
          Sign in with Email
        </button>
      </form>
      <GoogleAlternative />
      <footer>
        <p>
          Don&apos;t have an account? <Link href="/signup">Sign up</Link>
        </p>
      </footer>
    </AuthLayout>
  )
}

function GoogleSecondStep() {
  const finish = useFinish()
  const [, navigate] = useLocation()
  const [expired, setExpired] = useState<string | null>(null)
  const back = () => navigate('/login', { replace: true })

  async function submit(factor: SecondFactor) {
    try {
      await finish(await call(api.auth['2fa'].post(factor)))
    } catch (err) {
      // 'Your sign-in expired. Please sign in again.': the code cannot help any more, only a new sign-in.
      if (err instanceof ApiError && err.code === 'TWO_FACTOR_EXPIRED') return setExpired(err.message)
      throw err
    }
  }

  return (
    <AuthLayout title="Sign in">
      {expired !== null ? (
        <>
          <FormError error={expired} />
          <Link href="/login" role="button" replace>
            Back to sign in
          </Link>
        </>
      ) : (
        <TwoFactorStep submit={submit} onBack={back} />
      )}
    </AuthLayout>
  )
}
