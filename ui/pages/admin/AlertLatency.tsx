// The 'Alert latency' card of the admin Dashboard and Trends pages (GET /api/admin/latency): p50 /
// p95 / p99 of each stage of an alert's path, end to end, and post → claim per channel, over the last 1 h, 24 h or 7 days.
import { useState } from 'react'
import type { LatencyWindow, StageFigures } from '../../../src/metrics/latency-stats'
import { api, call } from '../../client'
import { usePolling } from '../../admin'
import { formatCount, formatSeconds } from './data-format'
import { TableScroll } from './TableScroll'

const WINDOWS: { value: LatencyWindow; label: string }[] = [
  { value: '1h', label: '1 h' },
  { value: '24h', label: '24 h' },
  { value: '7d', label: '7 d' },
]
const REFRESH_MS = 30_000

/** 85 ms, 1.2 s, 3 min 20 s; '—' when no alert reached the step. */
export const formatLatency = (ms: number | null) => (ms === null ? '—' : ms < 1000 ? `${Math.round(ms)} ms` : formatSeconds(ms / 1000))

function Rows({ rows }: { rows: StageFigures[] }) {
  return (
    <>
      {rows.map((s) => (
        <tr key={s.key}>
          <th scope="row">{s.label}</th>
          <td>{formatLatency(s.p50Ms)}</td>
          <td>{formatLatency(s.p95Ms)}</td>
          <td>{formatLatency(s.p99Ms)}</td>
          <td>{formatCount(s.count)}</td>
        </tr>
      ))}
    </>
  )
}

export function AlertLatencyCard({ className = 'admin-card' }: { className?: string }) {
  const [window, setWindow] = useState<LatencyWindow>('24h')
  const r = usePolling(() => call(api.admin.latency.get({ query: { window } })), REFRESH_MS, [window])

  const d = r.data
  return (
    <article className={className} aria-labelledby="alert-latency-title" data-testid="alert-latency">
      <header>
        <h2 id="alert-latency-title">Alert latency</h2>
        <fieldset className="ad-range" role="radiogroup" aria-label="Latency window">
          {WINDOWS.map((w) => (
            <label key={w.value}>
              <input type="radio" name="latency-window" value={w.value} checked={window === w.value} onChange={() => setWindow(w.value)} />
              {w.label}
            </label>
          ))}
        </fieldset>
      </header>
      <p className="muted">
        <small>Time from each step of an alert's path to the next. p50: half of the alerts were faster; p95 and p99: all but the slowest 5 % and 1 %.</small>
      </p>
      {r.error && !d ? <p role="alert">Could not load alert latency.</p> : null}
      {d ? (
        d.alerts === 0 ? (
          <p>No alerts in this window.</p>
        ) : (
          <TableScroll label="Alert latency by stage">
            <table className="striped ad-latency">
              <thead>
                <tr>
                  <th scope="col">Stage</th>
                  <th scope="col">p50</th>
                  <th scope="col">p95</th>
                  <th scope="col">p99</th>
                  <th scope="col">Alerts</th>
                </tr>
              </thead>
              <tbody>
                <Rows rows={d.stages} />
                <tr>
                  <th scope="rowgroup" colSpan={5}>
                    End to end, from the Reddit post
                  </th>
                </tr>
                <Rows rows={d.endToEnd} />
                <tr>
                  <th scope="rowgroup" colSpan={5}>
                    Time to claim: from the post to the user's first open or claim
                  </th>
                </tr>
                {d.postToClaim.length > 0 ? (
                  <Rows rows={d.postToClaim} />
                ) : (
                  <tr>
                    <td colSpan={5}>No alert opened or claimed in this window.</td>
                  </tr>
                )}
              </tbody>
            </table>
          </TableScroll>
        )
      ) : !r.error ? (
        <p aria-busy="true">Loading…</p>
      ) : null}
    </article>
  )
}
