// Admin → Dashboard, the sections that show figures: Key figures (KPI cards), System Health, Quick
// Actions, Recent Activity, System Resources. Fetching: ./useDashboard.ts; these only render.
import { Link } from 'wouter'
import { useSignals } from '@preact/signals-react/runtime'
import { formatBytes, formatDuration, formatMs, formatWhen } from '../../../admin'
import { config } from '../../../state'
import { gapCountText } from '../CoverageGaps'
import { useHealth, useKpis, useRecentActivity, useResources } from './useDashboard'

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

export function KpiCards() {
  useSignals()
  const k = useKpis()
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

export function HealthCard() {
  const h = useHealth()
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

export function QuickActions() {
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

export function RecentActivity() {
  const a = useRecentActivity()
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

export function SystemResources() {
  const r = useResources()
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
