// Admin → Logs, the Scan log card: scans and the other jobs, newest first, with a status filter.
// Fetching: ./useLogs.ts.
import { formatMs, formatWhen } from '../../../admin'
import { useScanLog } from './useLogs'

export function ScanLog({ version }: { version: number }) {
  const { status, setStatus, log } = useScanLog(version)
  return (
    <article className="admin-card" aria-labelledby="scanlog-title">
      <header className="card-head">
        <h2 id="scanlog-title">Scan log</h2>
        <label className="inline-field">
          Status
          <select value={status} onChange={(e) => setStatus(e.currentTarget.value)}>
            <option value="">All</option>
            <option value="success">success</option>
            <option value="failed">failed</option>
            <option value="skipped">skipped</option>
          </select>
        </label>
      </header>
      {log.error ? (
        <p role="alert" className="inline-error">
          Failed to load logs — Could not retrieve maintenance logs{' '}
          <button type="button" className="small" onClick={log.reload}>
            Retry
          </button>
        </p>
      ) : null}
      <div className="table-scroll tall" tabIndex={0} role="region" aria-label="Scan log entries">
        <table className="admin-table" data-testid="scan-log">
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Job</th>
              <th scope="col">Status</th>
              <th scope="col">Duration</th>
              <th scope="col">Details</th>
            </tr>
          </thead>
          <tbody>
            {log.data && log.data.length === 0 ? (
              <tr>
                <td colSpan={5} className="muted">
                  No entries{status ? ` with status ${status}` : ''}.
                </td>
              </tr>
            ) : null}
            {(log.data ?? []).map((e, i) => (
              <tr key={`${e.at}-${i}`}>
                <td>{formatWhen(e.at)}</td>
                <td>{e.job}</td>
                <td>
                  <span className={`badge status-${e.status}`}>{e.status}</span>
                </td>
                <td>{formatMs(e.durationMs)}</td>
                <td>
                  {e.summary}
                  {e.error ? <span className="text-danger"> {e.error}</span> : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </article>
  )
}
