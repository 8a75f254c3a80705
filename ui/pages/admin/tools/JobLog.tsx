// Admin → Tools, the job log card ('Maintenance logs': the spec's title): the 10 latest runs of
// every job with their details. Fetching: ./useTools.ts.
import { formatMs, formatWhen } from '../../../admin'
import { useJobLog } from './useTools'

export function JobLog({ version }: { version: number }) {
  const l = useJobLog(version)
  return (
    <article className="admin-card" aria-labelledby="mlogs-title" data-testid="maintenance-logs">
      <header className="card-head">
        <h2 id="mlogs-title">Maintenance logs</h2>
        <button type="button" className="outline secondary small" onClick={l.reload} aria-busy={l.loading}>
          Refresh
        </button>
      </header>
      {l.error ? (
        <p role="alert" className="inline-error">
          Failed to load logs — Could not retrieve maintenance logs{' '}
          <button type="button" className="small" onClick={l.reload}>
            Retry
          </button>
        </p>
      ) : null}
      {l.data && l.data.length === 0 ? <p className="muted">No maintenance jobs have run yet.</p> : null}
      <ul className="log-list">
        {(l.data ?? []).map((r) => (
          <li key={r.id}>
            <strong>{r.jobName}</strong> <span className={`badge status-${r.status}`}>{r.status}</span>{' '}
            <small className="muted">
              {formatWhen(r.executedAt)} · {formatMs(r.durationMs)}
            </small>
            {r.details ? (
              <small className="log-details">
                {Object.entries(r.details)
                  .map(([k, v]) => `${k.replace(/_/g, ' ')}: ${typeof v === 'object' ? JSON.stringify(v) : v}`)
                  .join(' · ')}
              </small>
            ) : null}
          </li>
        ))}
      </ul>
    </article>
  )
}
