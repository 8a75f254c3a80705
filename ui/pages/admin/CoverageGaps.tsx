// Admin → Logs: coverage gaps, windows the forum source may have missed (a poll whose oldest entry was newer
// than the newest stored post: more posts came between two polls than the feed holds), last 24 h or 7 d.
// Server end: GET /api/admin/source-gaps (src/admin/logs/view.ts over src/scanner/gaps.ts).
import { useState } from 'react'
import { api, call, type Answer } from '../../client'
import { formatDuration, formatWhen, usePolling } from '../../admin'

type Gaps = Answer<(typeof api.admin)['source-gaps']['get']>

/** '3 gaps, 1h 12m not covered' / 'No gaps': the Dashboard's System Health says it the same way. */
export function gapCountText(g: { count: number; seconds: number }): string {
  return g.count === 0 ? 'No gaps' : `${g.count === 1 ? '1 gap' : `${g.count} gaps`}, ${formatDuration(g.seconds)} not covered`
}

export function CoverageGaps({ version }: { version: number }) {
  const [range, setRange] = useState<Gaps['window']>('24h')
  const gaps = usePolling(() => call(api.admin['source-gaps'].get({ query: { window: range } })), 60_000, [range, version])

  const d = gaps.data
  return (
    <article className="admin-card" aria-labelledby="gaps-title" data-testid="coverage-gaps">
      <header className="card-head">
        <h2 id="gaps-title">Coverage gaps</h2>
        <label className="inline-field">
          Last
          <select value={range} onChange={(e) => setRange(e.currentTarget.value as Gaps['window'])}>
            <option value="24h">24 hours</option>
            <option value="7d">7 days</option>
          </select>
        </label>
      </header>
      <p className="muted small-text">
        A feed holds only the newest posts. When a poll’s oldest entry is newer than the newest post already stored, posts made in between may have been missed:
        no alert was sent for them. A catch-up that pages back to a stored post fills the window and is not listed.
      </p>
      {gaps.error ? (
        <p role="alert" className="inline-error">
          Could not load the coverage gaps.
        </p>
      ) : null}
      {d ? <p data-testid="coverage-gaps-total">{gapCountText(d)}</p> : null}
      {d && d.gaps.length > 0 ? (
        <div className="table-scroll" tabIndex={0} role="region" aria-label="Coverage gap windows">
          <table className="admin-table">
            <thead>
              <tr>
                <th scope="col">Not read</th>
                <th scope="col">From</th>
                <th scope="col">To</th>
                <th scope="col">Length</th>
              </tr>
            </thead>
            <tbody>
              {d.gaps.map((g) => (
                <tr key={`${g.fromAt}-${g.toAt}-${g.foundAt}`}>
                  <td>{g.subreddits.map((s) => `r/${s}`).join(', ')}</td>
                  <td>{formatWhen(g.fromAt)}</td>
                  <td>{formatWhen(g.toAt)}</td>
                  <td>{formatDuration(g.seconds)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </article>
  )
}
