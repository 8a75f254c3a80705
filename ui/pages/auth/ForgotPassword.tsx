// /forgot-password and /auth/forgot-password: asks for the email and sends the reset link
// (the answer is the same whether or not the address has an account).
import { useState } from 'react'
import { Link } from 'wouter'
import { api, call } from '../../client'
import { toast } from '../../toast'
import { AuthLayout, FormError, errorText } from './AuthLayout'

export function ForgotPassword() {
  const [email, setEmail] = useState('')
  const [busy, setBusy] = useState(false)
  const [sent, setSent] = useState<string | null>(null)
  const [error, setError] = useState<string | null>(null)
  async function submit(e: React.FormEvent) {
    e.preventDefault()
    setError(null)
    if (!email.trim()) return setError('Please enter your email address.')
    setBusy(true)
    try {
      const r = await call(api.auth.forgot.post({ email }))

      setSent(r.message)
    } catch (err) {
      const message = errorText(err, 'Please try again later.')
      setError(message)
      toast({ title: 'Error', description: message, variant: 'destructive' })
    } finally {
      setBusy(false)
    }
  }
  return (
    <AuthLayout title="Reset Password" subtitle="We will email you a link to set a new password.">
      {sent ? (
        <p role="status" data-testid="forgot-sent">
          {sent}
        </p>
      ) : (
        <form onSubmit={submit} noValidate>
          <label>
            Email
            <input type="email" name="email" autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} required />
          </label>
          <FormError error={error} />
          <button type="submit" aria-busy={busy} disabled={busy}>
            Reset Password
          </button>
        </form>
      )}
      <footer>
        <Link href="/login">Back to Login</Link>
      </footer>
    </AuthLayout>
  )
}
