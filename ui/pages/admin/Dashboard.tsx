// /admin (spec §2 Admin, §4 emergency pause / maintenance / system health, §7 admin calls, §8):
// 'Admin Dashboard' with the 'Admin Access' badge and 'System Alert' while the pause or maintenance
// is on; Critical System Controls (the killswitch shows 'on' while NOT paused); eight KPI cards
// (every 5 min); System Health (every 30 s); Quick Actions; Recent Activity; System Resources —
// all from src/admin/dashboard/, nothing static. Fetching and state: ./dashboard/useDashboard.ts;
// the sections: ./dashboard/CriticalControls.tsx and ./dashboard/Cards.tsx; this file lays them out.
import { useSignals } from '@preact/signals-react/runtime'
import { AdminLayout } from './AdminLayout'
import { AlertLatencyCard } from './AlertLatency'
import { CriticalControls } from './dashboard/CriticalControls'
import { HealthCard, KpiCards, QuickActions, RecentActivity, SystemResources } from './dashboard/Cards'
import { useSystemSettings } from './dashboard/useDashboard'

export function AdminDashboard() {
  useSignals()
  const s = useSystemSettings()
  const alert = s !== null && (s.is_emergency_paused || s.is_maintenance_mode_active)
  return (
    <AdminLayout
      title="Admin Dashboard"
      badges={
        <>
          <span className="badge admin-badge">Admin Access</span>
          {alert ? (
            <span className="badge status-badge tone-danger" data-testid="system-alert">
              System Alert
            </span>
          ) : null}
        </>
      }
    >
      <CriticalControls />
      <KpiCards />
      <div className="admin-columns">
        <HealthCard />
        <SystemResources />
      </div>
      <AlertLatencyCard />
      <QuickActions />
      <RecentActivity />
    </AdminLayout>
  )
}
