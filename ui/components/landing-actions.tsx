// Header actions of the landing page. The accounts capability's LandingHeaderActions adapts them to
// the session (spec §2); the signed-out set is the default.
import { Link } from 'wouter'

export function LandingActions() {
  return (
    <nav>
      <ul>
        <li>
          <Link href="/signup" role="button">
            Start Free Trial
          </Link>
        </li>
        <li>
          <Link href="/login">Login</Link>
        </li>
        <li>
          <Link href="/signup">Sign Up</Link>
        </li>
      </ul>
    </nav>
  )
}
