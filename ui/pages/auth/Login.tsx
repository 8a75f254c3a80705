// /login (spec §2, §8): email + password, 'Forgot password?', Google, 'Sign up'. An existing
// session goes to /dashboard; 'Email not confirmed' keeps the email and goes to /check-email.
import { useEffect, useState } from 'react'
import { useSignals } from '@preact/signals-react/runtime'
import { Link, Redirect, useLocation, useSearch } from 'wouter'
import { api, ApiError } from '../../api'
import type { Me } from '../../account'
import { authStatus, initAuth, REGISTRATION_EMAIL_KEY, signedIn } from '../../session'
import { config } from '../../state'
import { toast } from '../../toast'
import { AuthLayout, FormError, GoogleAlternative } from './AuthLayout'

export function Login() {
  useSignals()
  const [, navigate] = useLocation()
  const search = useSearch()
  const [email, setEmail] = useState('')
  const [password, setPassword] = useState('')
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  useEffect(() => {
    void initAuth()
    if (new URLSearchParams(search).get('error') === 'google_failed')
      toast({ title: 'Google login failed', description: 'Could not sign in with Google.', variant: 'destructive' })
  }, [])
  if (authStatus.value === 'authenticated') return <Redirect to="/dashboard" replace />

  async function submit(e: React.FormEvent) {
    e.preventDefault()
    setError(null)
    if (!email.trim() || !password) return setError('You must provide either an email or phone number and a password')
    setBusy(true)
    try {
      const res = await api<Me>('/api/auth/login', { method: 'POST', json: { email, password } })
      signedIn(res)
      navigate('/dashboard', { replace: true })
    } catch (err) {
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
