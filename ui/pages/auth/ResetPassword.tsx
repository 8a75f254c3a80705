// /reset-password?token=…: 'Set New Password' (≥ 8 characters, confirmation matches); the server
// revokes every session, then the visitor signs in at /login.
import { useState } from 'react'
import { Link, useLocation, useSearch } from 'wouter'
import { api, call } from '../../client'
import { toast } from '../../toast'
import { AuthLayout, FormError, errorText } from './AuthLayout'

export function ResetPassword() {
  const token = new URLSearchParams(useSearch()).get('token')
  const [, navigate] = useLocation()
  const [password, setPassword] = useState('')
  const [confirm, setConfirm] = useState('')
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  async function submit(e: React.FormEvent) {
    e.preventDefault()
    if (!password || !confirm) return setError('All fields are required')
    if (password !== confirm) return setError('Passwords do not match')
    if (password.length < 8) return setError('Password must be at least 8 characters long')
    setError(null)
    setBusy(true)
    try {
      await call(api.auth.reset.post({ token, password }))

      toast({ title: 'Password updated', description: 'Your password has been updated. Please sign in.' })
      navigate('/login', { replace: true })
    } catch (err) {
      setError(errorText(err, 'Please try again later.'))
    } finally {
      setBusy(false)
    }
  }
  if (!token)
    return (
      <AuthLayout title="Set New Password">
        <p role="alert">This password reset link is invalid or has expired. Please request a new one.</p>
        <Link href="/forgot-password" role="button">
          Reset Password
        </Link>
        <footer>
          <Link href="/login">Back to Login</Link>
        </footer>
      </AuthLayout>
    )
  return (
    <AuthLayout title="Set New Password" subtitle="Choose a new password of at least 8 characters.">
      <form onSubmit={submit} noValidate>
        <label>
          New password
          <input
            type="password"
            name="password"
            autoComplete="new-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            required
            minLength={8}
          />
        </label>
        <label>
          Confirm new password
          <input
            type="password"
            name="confirm"
            autoComplete="new-password"
            value={confirm}
            onChange={(e) => setConfirm(e.target.value)}
            required
            minLength={8}
          />
        </label>
        <FormError error={error}>
          {error?.includes('request a new one') ? (
            <>
              {' '}
              <Link href="/forgot-password">Request a new link</Link>
            </>
          ) : null}
        </FormError>
        <button type="submit" aria-busy={busy} disabled={busy}>
          Set New Password
        </button>
      </form>
      <footer>
        <Link href="/login">Back to Login</Link>
      </footer>
    </AuthLayout>
  )
}
