import { useSignals } from '@preact/signals-react/runtime'
import { Link } from 'wouter'
import { TopBar } from '../components/TopBar'
import { config } from '../state'

export function Landing() {
  useSignals()
  return (
    <>
      <TopBar>
        <nav>
          <ul>
            <li>
              <Link href="/signup" role="button">Start Free Trial</Link>
            </li>
            <li>
              <Link href="/login">Login</Link>
            </li>
            <li>
              <Link href="/signup">Sign Up</Link>
            </li>
          </ul>
        </nav>
      </TopBar>
      <main className="container">
        <section className="centered">
          <div>
            <h1>Call dibs first.</h1>
            <p className="muted">
              Instant alerts when a new r/{config.value.forums.accessories} or r/{config.value.forums.deals} post matches your saved search
              terms.
            </p>
          </div>
        </section>
      </main>
    </>
  )
}
