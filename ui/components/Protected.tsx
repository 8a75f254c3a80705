// Gate of the signed-in area, in the spec's order (§4): loading → not authenticated (redirect to
// /login, replace) → access-info loading → auth error → no access (page behind the overlay) →
// granted. `admin` pages also need the admin role, else they redirect to /dashboard, and with
// REQUIRE_ADMIN_2FA two-factor sign-in, else they say so and lead to Settings → Account. While
// maintenance mode is on, signed-in non-admins see the maintenance page instead.
import { useEffect } from 'react'
import { useSignals } from '@preact/signals-react/runtime'
import { Redirect, useLocation, useSearch } from 'wouter'
import { me } from '../account'
import { accessLoading, accessNotice, authError, authStatus, initAuth, signOut } from '../session'
import { config, configLoaded } from '../state'
import { AccessOverlay } from './AccessOverlay'
import { MaintenancePage } from './MaintenancePage'
import { maintenanceMode } from '../maintenance'
import { TwoFactorRequired } from './TwoFactorRequired'
import { loginPathFor } from '../lib/return-to'

function Gate({ text }: { text: string }) {
  return (
    <main className="container gate">
      <p aria-busy="true">{text}</p>
    </main>
  )
}

export function AuthErrorScreen({ message }: { message: string }) {
  const to = config.value.supportEmail ? encodeURIComponent(config.value.supportEmail) : ''
  const mail = `mailto:${to}?subject=${encodeURIComponent('Authentication Error')}&body=${encodeURIComponent(`I ran into this error:\n\n${message}\n\nPage: ${location.href}`)}`
  return (
    <main className="container gate">
      <article className="auth-card" role="alert">
        <h1>Authentication Error</h1>
        <p data-testid="auth-error">{message}</p>
        <button type="button" onClick={() => void initAuth(true)}>
          Try Again
        </button>
        <a href={mail} role="button" className="secondary">
          Contact Support
        </a>
        <button type="button" className="outline" onClick={() => void signOut({ quiet: true })}>
          Sign Out &amp; Return to Login
        </button>
      </article>
    </main>
  )
}

export function Protected({ children, admin = false }: { children: React.ReactNode; admin?: boolean }) {
  useSignals()
  const [location] = useLocation()
  const search = useSearch()
  useEffect(() => {
    void initAuth()
  }, [])
  const status = authStatus.value
  if (status === 'loading') return <Gate text="Initializing authentication..." />
  if (status === 'unauthenticated') return <Redirect to={loginPathFor({ pathname: location, search: search ? `?${search}` : '' })} replace />
  if (accessLoading.value) return <Gate text="Loading your account information..." />
  if (authError.value !== null || status === 'error')
    return <AuthErrorScreen message={authError.value ?? 'Authentication initialization failed. Please refresh the page or contact support.'} />
  const m = me.value
  if (!m) return <Gate text="Loading your account information..." />
  if (admin && m.access.userRole !== 'admin') return <Redirect to="/dashboard" replace />
  // Maintenance mode (src/web/maintenance-mode.ts): everyone but admins sees the maintenance page.
  if (maintenanceMode.value && m.access.userRole !== 'admin') return <MaintenancePage />
  // Whether admins must have two-factor on is in /api/config: an admin page waits for it.
  if (admin && !configLoaded.value) return <Gate text="Loading your account information..." />
  if (admin && config.value.requireAdmin2fa && m.user.twoFactorEnabled !== true) return <TwoFactorRequired />
  // Two-factor on, but this session signed in without a code (before enrolment or before the upgrade).
  if (admin && config.value.requireAdmin2fa && m.session?.secondFactor === false) return <TwoFactorRequired signInAgain />
  return (
    <>
      {accessNotice.value ? (
        <p className="muted" role="status" style={{ textAlign: 'center', margin: 0 }}>
          {accessNotice.value}
        </p>
      ) : null}
      {children}
      {m.access.hasAccess ? null : <AccessOverlay />}
    </>
  )
}
