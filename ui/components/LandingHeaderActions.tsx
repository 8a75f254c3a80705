// The landing page header in its spec §2 states: 'Loading...'; an account problem → 'Account
// Issue - Click to Retry' / 'Retry'; active access → 'Go to Dashboard' / 'Dashboard'; signed in
// without access → 'View Account' / 'Account'; signed out → the sign-up/login set. Signed-in
// visitors also get 'Sign Out & Sign In Fresh'. (Long label on desktop, short below 768 px.)
import { useEffect } from 'react'
import { useSignals } from '@preact/signals-react/runtime'
import { Link } from 'wouter'
import { me } from '../account'
import { LandingActions } from './landing-actions'
import { authError, authStatus, initAuth, signOut } from '../session'

function Label({ long, short }: { long: string; short: string }) {
  return (
    <>
      <span className="label-long">{long}</span>
      <span className="label-short">{short}</span>
    </>
  )
}

export function LandingHeaderActions() {
  useSignals()
  useEffect(() => {
    void initAuth()
  }, [])
  const status = authStatus.value
  if (status === 'unauthenticated') return <LandingActions />
  if (status === 'loading') return <span aria-busy="true">Loading...</span>
  const access = me.value?.access
  const problem = status === 'error' || authError.value !== null || !access
  return (
    <nav className="landing-actions">
      <ul>
        <li>
          {problem ? (
            <button type="button" className="secondary" onClick={() => void initAuth(true)}>
              <Label long="Account Issue - Click to Retry" short="Retry" />
            </button>
          ) : access.hasAccess ? (
            <Link href="/dashboard" role="button">
              <Label long="Go to Dashboard" short="Dashboard" />
            </Link>
          ) : (
            <Link href="/dashboard" role="button" className="secondary">
              <Label long="View Account" short="Account" />
            </Link>
          )}
        </li>
        <li>
          <a href="#" onClick={(e) => (e.preventDefault(), void signOut({ fresh: true, quiet: true }))}>
            Sign Out &amp; Sign In Fresh
          </a>
        </li>
      </ul>
    </nav>
  )
}
