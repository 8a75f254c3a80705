// What an admin sees instead of an admin page while REQUIRE_ADMIN_2FA is on (the admin API would
// answer 403 TWO_FACTOR_REQUIRED anyway): without two-factor sign-in, the reason and the way to enrol;
// with it on but a session that signed in without a code (`signInAgain`), the way to sign in with one.
import { Link } from 'wouter'
import { logout } from '../account'
import { TWO_FACTOR_TEXT } from '../two-factor'
import { TopBar } from './TopBar'

export function TwoFactorRequired({ signInAgain = false }: { signInAgain?: boolean }) {
  return (
    <>
      <TopBar />
      <main className="container gate">
        <article className="auth-card" data-testid="admin-two-factor-required">
          <h1>Two-factor authentication required</h1>
          {signInAgain ? (
            <>
              <p>{TWO_FACTOR_TEXT.adminSignInAgain}</p>
              <button type="button" onClick={() => void logout()}>
                Sign in again
              </button>
            </>
          ) : (
            <>
              <p>{TWO_FACTOR_TEXT.adminRequired}</p>
              <Link href="/settings/account" role="button">
                Go to Settings → Account
              </Link>
            </>
          )}
        </article>
      </main>
    </>
  )
}
