// Admin → Tools, the Scan metrics card: the last 24 h in figures and the 10 latest scans, with the
// spec's 'Scan frequency by tier' beside what Dibs does. Fetching: ./useTools.ts.
import { useSignals } from '@preact/signals-react/runtime'
import { formatMs, formatWhen } from '../../../admin'
import { SCAN_TIERS, tierNote } from '../../../lib/scan-frequency'
import { config } from '../../../state'
import { useScanMetrics } from './useTools'

export const METRICS_SHOWN = 10

export function ScanMetricsPanel() {
  const m = useScanMetrics()
  const s = m.data?.stats24h
  return (
    <article className="admin-card" aria-labelledby="metrics-title" data-testid="scan-metrics">
      <header className="card-head">
        <h2 id="metrics-title">Scan metrics</h2>
        <button type="button" className="outline secondary small" onClick={m.reload} aria-busy={m.loading}>
          Refresh
        </button>
      </header>
      {m.error ? (
        <div role="alert" className="inline-error">
          <strong>Error loading metrics</strong> — Could not load scanning metrics data{' '}
          <button type="button" className="small" onClick={m.reload}>
            Retry
          </button>
        </div>
      ) : null}
      {s ? (
        <dl className="stat-grid" aria-label="Last 24 hours">
          <div>
            <dt>Scans (24 h)</dt>
            <dd>{s.scans}</dd>
          </div>
          <div>
            <dt>Successful</dt>
            <dd>{s.successful}</dd>
          </div>
          <div>
            <dt>Failed</dt>
            <dd className={s.failed > 0 ? 'text-danger' : ''}>{s.failed}</dd>
          </div>
          <div>
            <dt>New posts</dt>
            <dd>{s.postsNew}</dd>
          </div>
          <div>
            <dt>Matches</dt>
            <dd>{s.matchesFound}</dd>
          </div>
          <div>
            <dt>Avg duration</dt>
            <dd>{formatMs(s.avgDurationMs)}</dd>
          </div>
        </dl>
      ) : m.loading ? (
        <p aria-busy="true">Loading metrics…</p>
      ) : null}
      {m.data ? (
        <div className="table-scroll" tabIndex={0} role="region" aria-label="Latest scans">
          <table className="admin-table">
            <caption className="muted">
              {Math.min(METRICS_SHOWN, m.data.rows.length)} latest of {m.data.rows.length} loaded
            </caption>
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Type</th>
                <th scope="col">Status</th>
                <th scope="col">New posts</th>
                <th scope="col">Users</th>
                <th scope="col">Matches</th>
                <th scope="col">Duration</th>
              </tr>
            </thead>
            <tbody>
              {m.data.rows.length === 0 ? (
                <tr>
                  <td colSpan={7} className="muted">
                    No scans recorded yet.
                  </td>
                </tr>
              ) : null}
              {m.data.rows.slice(0, METRICS_SHOWN).map((r) => (
                <tr key={r.id}>
                  <td>{formatWhen(r.createdAt)}</td>
                  <td>{r.scanType}</td>
                  <td>
                    <span className={`badge status-${r.status}`} title={r.error ?? undefined}>
                      {r.status}
                    </span>
                  </td>
                  <td>{r.postsNew}</td>
                  <td>{r.usersProcessed}</td>
                  <td>{r.matchesFound}</td>
                  <td>{formatMs(r.durationMs)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      <ScanTiers />
    </article>
  )
}

/** The spec's 'Scan frequency by tier' (displayed), with what Dibs does beside it. */
function ScanTiers() {
  useSignals()
  return (
    <section aria-labelledby="scan-tiers-title" data-testid="scan-tiers">
      <h3 id="scan-tiers-title">Scan frequency by tier</h3>
      <ul className="scan-tiers">
        {SCAN_TIERS.map((t) => (
          <li key={t.tier}>
            {t.tier}: {t.every}
          </li>
        ))}
      </ul>
      <p className="muted">
        <small>{tierNote(config.value.scanIntervalSeconds)}</small>
      </p>
    </section>
  )
}
