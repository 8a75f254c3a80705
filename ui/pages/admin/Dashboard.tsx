// /admin (spec §2 Admin, §4 emergency pause / maintenance / system health, §7 admin calls, §8):
// 'Admin Dashboard' with the 'Admin Access' badge and 'System Alert' while the pause or maintenance
// is on; Critical System Controls (the killswitch shows 'on' while NOT paused); eight KPI cards
// (every 5 min); System Health (every 30 s); Quick Actions; Recent Activity; System Resources —
// all from src/admin/dashboard.ts, nothing static.
import { useEffect, useState } from 'react'
import { Link } from 'wouter'
import { useSignals } from '@preact/signals-react/runtime'
import type { SettingName } from '../../../src/contract/events'
import { api, ApiError } from '../../api'
import {
  formatBytes,
  formatDuration,
  formatMs,
  formatWhen,
  loadSystemSettings,
  putSystemSetting,
  systemSettings,
  usePolling,
  wireSystemSettings,
} from '../../admin'
import { onMessage } from '../../realtime'
import { errorToast, toast } from '../../toast'
import { config } from '../../state'
import { AdminLayout } from './AdminLayout'
import { AlertLatencyCard } from './AlertLatency'
import { gapCountText } from './CoverageGaps'

export const HEALTH_REFRESH_MS = 30_000
export const KPI_REFRESH_MS = 5 * 60_000

type Health = {
  posts: number
  users: number
  matches: number
  lastScanAt: string | null
  status: 'healthy' | 'warning' | 'critical'
  minutesSinceLastScan: number | null
  performance: number
  emailQueuePending: number
  emailQueueColour: 'green' | 'yellow' | 'red'
  source?: { state: string; reason: string | null; since: string | null } | null
  forumNotice?: string | null
  coverageGaps?: { count: number; seconds: number }
}
type Kpis = {
  matchesToday: number
  matchesYesterday: number
  usersMatched24h: number
  postsToday: number
  totalUsers: number
  activeOrTrialing: number
  trialUsers: number
  paidUsers: number
  conversionRate: number | null
  matchesGrowthPercent: number | null
}
type Resources = {
  uptimeSeconds: number
  memory: { rssBytes: number; heapUsedBytes: number; heapTotalBytes: number }
  eventLoopLag: { lastMs: number | null; meanMs: number | null; maxMs: number | null; windowSeconds: number }
  database: { fileBytes: number; walBytes: number }
  openSockets: number
  outbox: { pending: number; sending: number }
  reddit: {
    mode: string | null
    requestsLastMinute: number | null
    allowedPerMinute: number | null
    blockedUntil: string | null
    blockedReason: string | null
    last429At: string | null
  }
  scanInterval: { ms: number; adaptive: boolean }
  alertLatency24h: { samples: number; p50Ms: number | null; p95Ms: number | null }
}
type Activity = { at: string; kind: 'admin' | 'job' | 'scan'; text: string; status: string; actor: string | null }

const QUICK_ACTIONS: { label: string; path: string; hint: string }[] = [
  { label: 'Users', path: '/admin/users', hint: 'Accounts, roles, access' },
  { label: 'Scraper Logs', path: '/admin/logs', hint: 'Scanner status and logs' },
  { label: 'Database', path: '/admin/database', hint: 'Sizes, backup, integrity' },
  { label: 'Trends', path: '/admin/trends', hint: 'Posts, matches, latency' },
  { label: 'Alerts', path: '/admin/alerts', hint: 'Outbox and deliveries' },
  { label: 'Revenue', path: '/admin/revenue', hint: 'MRR, plans, trials' },
  { label: 'Tools', path: '/admin/tools', hint: 'Scans, matching, maintenance' },
  { label: 'Feedback', path: '/admin/feedback', hint: 'Contact-form inbox' },
]

const pct = (v: number | null) => (v === null ? '—' : `${v > 0 ? '+' : ''}${v}%`)

function SwitchRow(props: {
  id: string
  title: string
  description: string
  checked: boolean | null
  busy: boolean
  label: string
  badge: { text: string; tone: 'danger' | 'ok' | 'warning' }
  onChange: (checked: boolean) => void
}) {
  return (
    <div className="control-row">
      <div>
        <h3 id={`${props.id}-title`}>
          {props.title}{' '}
          <span className={`badge status-badge tone-${props.badge.tone}`} data-testid={`${props.id}-badge`}>
            {props.badge.text}
          </span>
        </h3>
        <p className="muted">{props.description}</p>
      </div>
      <label className="switch-label">
        <input
          type="checkbox"
          role="switch"
          data-testid={`${props.id}-switch`}
          aria-describedby={`${props.id}-title`}
          checked={props.checked ?? false}
          disabled={props.checked === null || props.busy}
          aria-busy={props.busy}
          onChange={(e) => props.onChange(e.currentTarget.checked)}
        />
        {props.label}
      </label>
    </div>
  )
}

function CriticalControls() {
  useSignals()
  const s = systemSettings.value
  const [busy, setBusy] = useState<SettingName | null>(null)
  const paused = s?.is_emergency_paused ?? null
  const maintenance = s?.is_maintenance_mode_active ?? null

  const save = async (name: SettingName, active: boolean) => {
    setBusy(name)
    try {
      await putSystemSetting(name, active)
      if (name === 'is_emergency_paused')
        toast(
          active
            ? { title: 'EMERGENCY PAUSE ACTIVATED', description: 'All system operations are now paused', variant: 'destructive' }
            : { title: 'Emergency Pause Deactivated', description: 'System operations have been resumed' },
        )
      else
        toast(
          active
            ? { title: 'Maintenance Mode Enabled', description: 'System is now in maintenance mode' }
            : { title: 'Maintenance Mode Disabled', description: 'System maintenance mode has been disabled' },
        )
    } catch (err) {
      errorToast(
        err instanceof ApiError
          ? name === 'is_emergency_paused'
            ? 'Failed to update emergency pause status'
            : 'Failed to update maintenance mode status'
          : 'An unexpected error occurred',
      )
    } finally {
      setBusy(null)
    }
  }

  return (
    <article className="admin-card critical-controls" aria-labelledby="critical-title">
      <header>
        <h2 id="critical-title">Critical System Controls</h2>
      </header>
      <SwitchRow
        id="emergency"
        title="Emergency Killswitch"
        description="On: scanning, matching and alerting run. Off: everything stops at once (emergency pause) until switched back on."
        label="System operations"
        checked={paused === null ? null : !paused}
        busy={busy === 'is_emergency_paused'}
        badge={paused ? { text: 'PAUSED', tone: 'danger' } : { text: 'ACTIVE', tone: 'ok' }}
        onChange={(on) => void save('is_emergency_paused', !on)}
      />
      <SwitchRow
        id="maintenance"
        title="Maintenance Mode"
        description="Signed-in users see a maintenance page and the API answers them 503; admins keep working, scanning and alerts go on."
        label="Maintenance mode"
        checked={maintenance}
        busy={busy === 'is_maintenance_mode_active'}
        badge={maintenance ? { text: 'MAINTENANCE', tone: 'warning' } : { text: 'NORMAL', tone: 'ok' }}
        onChange={(on) => void save('is_maintenance_mode_active', on)}
      />
    </article>
  )
}

function KpiCards() {
  useSignals()
  const k = usePolling(() => api<Kpis>('/api/admin/kpis'), KPI_REFRESH_MS)
  const d = k.data
  const cards: { label: string; value: string; note?: string }[] = d
    ? [
        { label: 'Matches today', value: String(d.matchesToday), note: `${pct(d.matchesGrowthPercent)} vs yesterday` },
        { label: 'Matches yesterday', value: String(d.matchesYesterday) },
        { label: 'Users matched (24 h)', value: String(d.usersMatched24h) },
        { label: 'Posts today', value: String(d.postsToday) },
        { label: 'Total users', value: String(d.totalUsers) },
        { label: 'Active or trialing', value: String(d.activeOrTrialing) },
        { label: 'Trial / paid', value: `${d.trialUsers} / ${d.paidUsers}` },
        config.value.billingEnabled
          ? { label: 'Conversion rate', value: d.conversionRate === null ? '—' : `${d.conversionRate}%`, note: 'paid / (trial + paid)' }
          : { label: 'Conversion rate', value: '—', note: 'billing is off: plans are granted, not sold' },
      ]
    : []
  return (
    <section aria-labelledby="kpi-title" className="admin-section">
      <h2 id="kpi-title">
        Key figures <small className="muted">refreshed every 5 minutes (UTC days)</small>
      </h2>
      {k.error && !d ? (
        <p role="alert">
          Could not load the key figures. <RetryButton onClick={k.reload} />
        </p>
      ) : null}
      {!d && !k.error ? <p aria-busy="true">Loading…</p> : null}
      <div className="kpi-grid" data-testid="kpi-cards">
        {cards.map((c) => (
          <article key={c.label} className="kpi-card">
            <p className="kpi-label">{c.label}</p>
            <p className="kpi-value">{c.value}</p>
            {c.note ? <p className="kpi-note muted">{c.note}</p> : null}
          </article>
        ))}
      </div>
    </section>
  )
}

function RetryButton({ onClick }: { onClick: () => void }) {
  return (
    <button type="button" className="outline small" onClick={onClick}>
      Retry
    </button>
  )
}

function HealthCard() {
  const h = usePolling(() => api<Health>('/api/admin/health'), HEALTH_REFRESH_MS)
  const d = h.data
  return (
    <article className="admin-card" aria-labelledby="health-title" data-testid="system-health">
      <header>
        <h2 id="health-title">
          System Health{' '}
          {d ? (
            <span className={`badge status-badge tone-${d.status === 'healthy' ? 'ok' : d.status === 'warning' ? 'warning' : 'danger'}`}>{d.status}</span>
          ) : null}
        </h2>
      </header>
      {h.error && !d ? (
        <p role="alert">
          Could not load system health. <RetryButton onClick={h.reload} />
        </p>
      ) : null}
      {d ? (
        <>
          <p>
            Performance {d.performance}%
            <progress value={d.performance} max={100} aria-label="Performance" />
          </p>
          {d.source ? (
            <p className="text-danger" data-testid="health-source">
              Forum source {d.source.state.replace('_', ' ')}
              {d.source.since ? ` since ${formatWhen(d.source.since)}` : ''}: {d.source.reason} (<Link href="/admin/logs">Logs</Link>)
            </p>
          ) : null}
          {d.forumNotice ? (
            <p className="text-danger" data-testid="health-forum-notice">
              {d.forumNotice}
            </p>
          ) : null}
          <dl className="stat-list">
            <dt>Last successful scan</dt>
            <dd>{d.lastScanAt ? `${formatWhen(d.lastScanAt)} · ${d.minutesSinceLastScan} min` : 'None yet'}</dd>
            {d.coverageGaps ? (
              <>
                <dt>Coverage gaps (24 h)</dt>
                <dd data-testid="health-gaps">
                  {gapCountText(d.coverageGaps)}
                  {d.coverageGaps.count > 0 ? (
                    <>
                      {' '}
                      (<Link href="/admin/logs">Logs</Link>)
                    </>
                  ) : null}
                </dd>
              </>
            ) : null}
            <dt>Posts</dt>
            <dd>{d.posts}</dd>
            <dt>Users</dt>
            <dd>{d.users}</dd>
            <dt>Matches</dt>
            <dd>{d.matches}</dd>
            <dt>Email queue pending</dt>
            <dd>
              <span className={`badge queue-${d.emailQueueColour}`} data-testid="email-queue">
                {d.emailQueuePending}
              </span>
            </dd>
          </dl>
        </>
      ) : !h.error ? (
        <p aria-busy="true">Loading…</p>
      ) : null}
    </article>
  )
}

function QuickActions() {
  return (
    <section aria-labelledby="quick-title" className="admin-section">
      <h2 id="quick-title">Quick Actions</h2>
      <ul className="quick-actions">
        {QUICK_ACTIONS.map((a) => (
          <li key={a.path}>
            <Link href={a.path} className="quick-tile">
              <strong>{a.label}</strong>
              <small className="muted">{a.hint}</small>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  )
}

function RecentActivity() {
  const a = usePolling(() => api<Activity[]>('/api/admin/activity?limit=15'), HEALTH_REFRESH_MS)
  const { reload } = a
  useEffect(() => onMessage('settings.changed', () => reload()), [])
  return (
    <article className="admin-card" aria-labelledby="activity-title">
      <header>
        <h2 id="activity-title">Recent Activity</h2>
      </header>
      {a.error && !a.data ? (
        <p role="alert">
          Could not load recent activity. <RetryButton onClick={a.reload} />
        </p>
      ) : null}
      {a.data && a.data.length === 0 ? <p className="muted">Nothing yet: admin actions, maintenance jobs and scans with new posts show here.</p> : null}
      <ul className="activity-list" data-testid="recent-activity">
        {(a.data ?? []).map((item, i) => (
          <li key={`${item.at}-${i}`}>
            <span className={`badge kind-${item.kind}`}>{item.kind}</span>{' '}
            <span className={item.status === 'ok' || item.status === 'success' ? '' : 'text-danger'}>{item.text}</span>
            <br />
            <small className="muted">
              {formatWhen(item.at)}
              {item.actor ? ` · ${item.actor}` : ''}
              {item.status !== 'ok' && item.status !== 'success' ? ` · ${item.status}` : ''}
            </small>
          </li>
        ))}
      </ul>
    </article>
  )
}

function SystemResources() {
  const r = usePolling(() => api<Resources>('/api/admin/resources'), HEALTH_REFRESH_MS)
  const d = r.data
  return (
    <article className="admin-card" aria-labelledby="resources-title" data-testid="system-resources">
      <header>
        <h2 id="resources-title">System Resources</h2>
      </header>
      {r.error && !d ? (
        <p role="alert">
          Could not load system resources. <RetryButton onClick={r.reload} />
        </p>
      ) : null}
      {d ? (
        <dl className="stat-list">
          <dt>Uptime</dt>
          <dd>{formatDuration(d.uptimeSeconds)}</dd>
          <dt>Memory</dt>
          <dd>
            RSS {formatBytes(d.memory.rssBytes)} · heap {formatBytes(d.memory.heapUsedBytes)}
          </dd>
          <dt>Event-loop lag</dt>
          <dd>
            {d.eventLoopLag.lastMs === null
              ? 'measuring…'
              : `${d.eventLoopLag.lastMs} ms now, max ${d.eventLoopLag.maxMs} ms (${d.eventLoopLag.windowSeconds} s)`}
          </dd>
          <dt>Database / WAL</dt>
          <dd>
            {formatBytes(d.database.fileBytes)} / {formatBytes(d.database.walBytes)}
          </dd>
          <dt>Open sockets</dt>
          <dd>{d.openSockets}</dd>
          <dt>Outbox depth</dt>
          <dd>
            {d.outbox.pending} pending, {d.outbox.sending} sending
          </dd>
          <dt>Reddit budget</dt>
          <dd>
            {d.reddit.allowedPerMinute === null
              ? 'No rate budget (demo forum)'
              : `${d.reddit.requestsLastMinute} / ${d.reddit.allowedPerMinute} requests in the last minute (${d.reddit.mode})`}
            {d.reddit.blockedUntil ? ` · waiting until ${formatWhen(d.reddit.blockedUntil)} (${d.reddit.blockedReason})` : ''}
            <br />
            <small className="muted">Last 429: {d.reddit.last429At ? formatWhen(d.reddit.last429At) : 'none recorded'}</small>
          </dd>
          <dt>Scan interval now</dt>
          <dd>
            {formatMs(d.scanInterval.ms)}
            {d.scanInterval.adaptive ? ' (adaptive)' : ''}
          </dd>
          <dt>Post → alert latency (24 h)</dt>
          <dd>
            {d.alertLatency24h.samples === 0
              ? 'No live matches in the last 24 h'
              : `p50 ${formatMs(d.alertLatency24h.p50Ms)}, p95 ${formatMs(d.alertLatency24h.p95Ms)} (${d.alertLatency24h.samples} matches)`}
          </dd>
        </dl>
      ) : !r.error ? (
        <p aria-busy="true">Loading…</p>
      ) : null}
    </article>
  )
}

export function AdminDashboard() {
  useSignals()
  useEffect(() => {
    wireSystemSettings()
    loadSystemSettings().catch((err) => {
      if (err instanceof ApiError) {
        errorToast('Failed to fetch emergency pause status')
        errorToast('Failed to fetch maintenance mode status')
      } else errorToast('An unexpected error occurred')
    })
  }, [])
  const s = systemSettings.value
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
