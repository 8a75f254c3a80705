// /check-email (spec §2): 'Confirm Your Email', the address the link went to (from session
// storage), resend, 'Back to Login'. Without a stored address the visitor types it.
import { useState } from 'react'
import { Link } from 'wouter'
import { REGISTRATION_EMAIL_KEY } from '../../session'
import { AuthLayout } from './AuthLayout'
import { ResendConfirmation } from './ResendConfirmation'

export function CheckEmail() {
  const stored = typeof sessionStorage === 'undefined' ? null : sessionStorage.getItem(REGISTRATION_EMAIL_KEY)
  const [email, setEmail] = useState(stored ?? '')
  return (
    <AuthLayout title="Confirm Your Email">
      {stored ? (
        <p>
          We sent a confirmation link to <strong data-testid="sent-to">{stored}</strong>. Click it to activate your account — it expires in 24 hours.
        </p>
      ) : (
        <>
          <p>We sent you a confirmation link. Enter your email address to get a new one.</p>
          <label>
            Email
            <input type="email" value={email} onChange={(e) => setEmail(e.target.value)} autoComplete="email" />
          </label>
        </>
      )}
      <p className="muted">Can&apos;t find it? Check your spam folder, or send it again.</p>
      <ResendConfirmation email={email} />
      <footer>
        <Link href="/login" role="button" className="outline">
          Back to Login
        </Link>
      </footer>
    </AuthLayout>
  )
}
