// /email-confirmation?status=success|expired|invalid — where the emailed link lands. Success
// continues to the dashboard on its own when the link signed this browser in (only the browser that
// signed up is signed in, see src/auth/cookies.ts); any other browser is asked to sign in.
import { useEffect, useState } from 'react'
import { useSignals } from '@preact/signals-react/runtime'
import { Link, useLocation, useSearch } from 'wouter'
import { authStatus, initAuth } from '../../session'
import { AuthLayout } from './AuthLayout'
import { ResendConfirmation } from './ResendConfirmation'

export const CONTINUE_DELAY_MS = 1500

export function EmailConfirmation() {
  useSignals()
  const status = new URLSearchParams(useSearch()).get('status')
  const [, navigate] = useLocation()
  const [email, setEmail] = useState('')
  useEffect(() => {
    if (status === 'success') void initAuth(true)
  }, [status])
  const signedIn = authStatus.value === 'authenticated'
  useEffect(() => {
    if (status !== 'success' || !signedIn) return
    const t = setTimeout(() => navigate('/dashboard', { replace: true }), CONTINUE_DELAY_MS)
    return () => clearTimeout(t)
  }, [status, signedIn])

  if (status === 'success')
    return (
      <AuthLayout title="Email Confirmed">
        <p>Your email address has been confirmed and your account is ready.</p>
        {signedIn ? (
          <Link href="/dashboard" role="button">
            Continue to Dashboard
          </Link>
        ) : (
          <>
            {authStatus.value === 'unauthenticated' ? <p>Please sign in to continue.</p> : null}
            <Link href="/login" role="button">
              Sign in
            </Link>
          </>
        )}
      </AuthLayout>
    )
  if (status === 'expired')
    return (
      <AuthLayout title="Link Expired">
        <p>This confirmation link has expired. Enter your email address and we will send you a new one.</p>
        <label>
          Email
          <input type="email" value={email} onChange={(e) => setEmail(e.target.value)} autoComplete="email" />
        </label>
        <ResendConfirmation email={email} />
        <footer>
          <Link href="/login">Back to Login</Link>
        </footer>
      </AuthLayout>
    )
  return (
    <AuthLayout title="Invalid Link">
      <p>This confirmation link is invalid or has already been used.</p>
      <p className="auth-links">
        <Link href="/login">Back to Login</Link>
        <Link href="/signup">Sign up</Link>
      </p>
    </AuthLayout>
  )
}
