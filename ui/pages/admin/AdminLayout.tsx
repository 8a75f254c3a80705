// Frame of every admin page: the signed-in shell, the page heading with its badges, a banner while
// the emergency pause or maintenance mode is on (kept live from the admin socket topic), and the
// section menu (spec §2 Admin: Dashboard, Users, Logs, Database, Trends, Alerts, Revenue, Tools,
// Feedback). At 390 px the menu scrolls sideways and the heading wraps.
import { useEffect, useSyncExternalStore, type ReactNode } from 'react'
import { Link, useLocation } from 'wouter'
import { useSignals } from '@preact/signals-react/runtime'
import { AppShell } from '../../components/AppShell'
import { adminMenu } from '../../routes'
import { config } from '../../state'
import { loadSystemSettings, systemSettings, wireSystemSettings } from '../../admin'

export const PAUSED_BANNER = 'Emergency pause is on: scanning, matching and alerting are stopped.'
export const MAINTENANCE_BANNER = 'Maintenance mode is on: signed-in users see the maintenance page; scanning and alerts go on.'

// Subscribed to the signal directly rather than through useSignals' render tracking: one CI run saw the
// dashboard's badge turn PAUSED live while this banner never appeared (not reproduced since).
const subscribeSettings = (changed: () => void) => systemSettings.subscribe(() => changed())
const settingsNow = () => systemSettings.value

export function SystemBanners() {
  const s = useSyncExternalStore(subscribeSettings, settingsNow, settingsNow)
  if (!s) return null
  return (
    <>
      {s.is_emergency_paused ? (
        <p className="admin-banner admin-banner-danger" role="status" data-testid="paused-banner">
          {PAUSED_BANNER} <Link href="/admin">Switch it off on the dashboard.</Link>
        </p>
      ) : null}
      {s.is_maintenance_mode_active ? (
        <p className="admin-banner admin-banner-warning" role="status" data-testid="maintenance-banner">
          {MAINTENANCE_BANNER}
        </p>
      ) : null}
    </>
  )
}

export function AdminLayout({ title, badges, children }: { title: string; badges?: ReactNode; children: ReactNode }) {
  useSignals()
  const [location] = useLocation()
  useEffect(() => {
    wireSystemSettings()
    void loadSystemSettings().catch(() => {})
  }, [])
  return (
    <AppShell>
      <div className="admin-page">
        <header className="admin-header">
          <h1>{title}</h1>
          {badges ? <div className="admin-badges">{badges}</div> : null}
        </header>
        <nav aria-label="Admin sections" className="admin-sections">
          <ul>
            {adminMenu(config.value.productSlug).map((item) => (
              <li key={item.path}>
                <Link href={item.path} aria-current={location === item.path ? 'page' : undefined}>
                  {item.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <SystemBanners />
        {children}
      </div>
    </AppShell>
  )
}
