// What an admin without two-factor sign-in sees instead of an admin page while REQUIRE_ADMIN_2FA is
// on (the admin API would answer 403 TWO_FACTOR_REQUIRED anyway): the reason and the way to enrol.
import { Link } from 'wouter'
import { TWO_FACTOR_TEXT } from '../two-factor'
import { TopBar } from './TopBar'

export function TwoFactorRequired() {
  return (
    <>
      <TopBar />
      <main className="container gate">
        <article className="auth-card" data-testid="admin-two-factor-required">
          <h1>Two-factor authentication required</h1>
          <p>{TWO_FACTOR_TEXT.adminRequired}</p>
          <Link href="/settings/account" role="button">
            Go to Settings → Account
          </Link>
        </article>
      </main>
    </>
  )
}
