// /admin/alerts: the outbox (GET /api/admin/alerts) — the queue per channel now (with the rows parked
// for quiet hours, waiting for a re-check, or skipped), messages queued per
// day by their status, failed messages with their last error and Retry one / Retry all, push
// subscriptions removed as gone, and email bounces (not known: Dibs receives none).
// Fetching and state: ./alerts/useAlerts.ts; this file renders.
import { useMemo } from 'react'
import { formatDate } from '../../lib/dates'
import { AdminLayout } from './AdminLayout'
import { CHART_COLORS, DataChart, type ChartSeries } from './DataChart'
import { formatCount, formatSeconds } from './data-format'
import { LoadError, RangePicker } from './RangePicker'
import { useAlerts, type FailedPage, type Overview } from './alerts/useAlerts'
import { TableScroll } from './TableScroll'
import { BlockedSellers } from './alerts/BlockedSellers'

/** A channel's name: the channel registry's (the overview carries them), else the kind as stored. */
const channelName = (names: Record<string, string> | undefined, c: string) => names?.[c] ?? c

export function AdminAlerts() {
  const { days, setDays, setPage, overview, failed, busy, retry, reload } = useAlerts()

  const data = overview.data
  const charts = useMemo(() => {
    if (!data) return []
    const [blue, amber, green, red] = CHART_COLORS as [string, string, string, string]
    return data.channels.map((c) => {
      const s = data.perDay[c]!
      const series: ChartSeries[] = [
        { label: 'Sent', values: s.sent ?? [], color: green },
        { label: 'Pending', values: (s.pending ?? []).map((v, i) => v + (s.sending?.[i] ?? 0)), color: blue },
        { label: 'Failed', values: s.failed ?? [], color: red },
      ]
      return { channel: c, series, gone: c === 'push' ? [{ label: 'Subscriptions removed as gone', values: data.pushGone.perDay, color: amber }] : null }
    })
  }, [data])

  return (
    <AdminLayout title="Alerts">
      <div className="ad-toolbar">
        <RangePicker value={days} onChange={setDays} />
        <button type="button" className="secondary outline" onClick={() => void reload()}>
          Refresh
        </button>
      </div>
      {overview.error && !data ? <LoadError error={overview.error} title="Failed to load the outbox" retry={overview.reload} /> : null}
      {!data && !overview.error ? <p aria-busy="true">Loading the outbox...</p> : null}
      {data ? (
        <div className="ad-grid">
          <QueueCard data={data} />
          {charts.map((c) => (
            <DataChart
              key={c.channel}
              id={`outbox-${c.channel}`}
              title={`${channelName(data.channelNames, c.channel)}: messages queued per day`}
              description="by the status each has now (pending includes sending)"
              labels={data.labels}
              series={c.series}
            />
          ))}
          <section className="ad-card" aria-labelledby="push-gone">
            <h2 id="push-gone">Push subscriptions removed as gone</h2>
            <p>
              <strong>{formatCount(data.pushGone.count)}</strong> in the last {data.days} days (the push service answered 404 or 410, so the device unsubscribed
              or the browser dropped it).
            </p>
            {data.pushGone.recent.length > 0 ? (
              <ul className="ad-plain">
                {data.pushGone.recent.map((g, i) => (
                  <li key={i}>
                    {formatDate(g.at)} · user #{String(g.userId ?? '?')} · {String(g.userAgent ?? 'unknown device')} · {String(g.service ?? '')} (
                    {String(g.status ?? '')})
                  </li>
                ))}
              </ul>
            ) : null}
          </section>
          <section className="ad-card" aria-labelledby="bounces">
            <h2 id="bounces">Email bounces</h2>
            <p data-testid="bounces">{data.bounces.text}</p>
          </section>
        </div>
      ) : null}
      <FailedCard
        names={data?.channelNames}
        page={failed.data}
        error={failed.error}
        busy={busy}
        onRetry={(id) => void retry(id)}
        onPage={setPage}
        reload={failed.reload}
      />
      <BlockedSellers />
    </AdminLayout>
  )
}

function QueueCard({ data }: { data: Overview }) {
  return (
    <section className="ad-card ad-wide" aria-labelledby="queue-now">
      <h2 id="queue-now">Queue now</h2>
      {/* focusable: the table is wider than a phone, and a keyboard user scrolls it */}
      <div className="ad-table-scroll" tabIndex={0} role="region" aria-labelledby="queue-now">
        <table className="striped">
          <thead>
            <tr>
              <th scope="col">Channel</th>
              <th scope="col">Pending</th>
              <th scope="col">Due now</th>
              <th scope="col">Sending</th>
              <th scope="col">Sent</th>
              <th scope="col">Failed</th>
              <th scope="col">Oldest pending</th>
              <th scope="col">Held (quiet hours)</th>
              <th scope="col">Waiting (re-check)</th>
              <th scope="col">Skipped (post gone)</th>
            </tr>
          </thead>
          <tbody>
            {data.channels.map((c) => {
              const q = data.queue[c] as Record<string, number | string | null>
              return (
                <tr key={c}>
                  <th scope="row">{channelName(data.channelNames, c)}</th>
                  <td>{formatCount(Number(q.pending))}</td>
                  <td>{formatCount(Number(q.due))}</td>
                  <td>{formatCount(Number(q.sending))}</td>
                  <td>{formatCount(Number(q.sent))}</td>
                  <td>{formatCount(Number(q.failed))}</td>
                  <td>{q.oldestPendingAgeSeconds === null ? 'none' : `${formatSeconds(Number(q.oldestPendingAgeSeconds))} ago`}</td>
                  <td>{formatCount(data.parked[c]?.held ?? 0)}</td>
                  <td>{formatCount(data.parked[c]?.waiting ?? 0)}</td>
                  <td>{formatCount(data.parked[c]?.skipped ?? 0)}</td>
                </tr>
              )
            })}
          </tbody>
        </table>
      </div>
      <small className="ad-muted">Sent messages are pruned after 30 days, so longer ranges show fewer of them.</small>
    </section>
  )
}

function FailedCard({
  names,
  page,
  error,
  busy,
  onRetry,
  onPage,
  reload,
}: {
  names: Record<string, string> | undefined
  page: FailedPage | null
  error: string | null
  busy: number | 'all' | null
  onRetry: (id: number | 'all') => void
  onPage: (p: number) => void
  reload: () => void
}) {
  return (
    <section className="ad-card ad-wide" aria-labelledby="failed-title">
      <header className="ad-card-head">
        <h2 id="failed-title">Failed messages{page ? ` (${formatCount(page.total)})` : ''}</h2>
        <button type="button" disabled={!page || page.total === 0 || busy !== null} aria-busy={busy === 'all'} onClick={() => onRetry('all')}>
          Retry all failed
        </button>
      </header>
      {error && !page ? <LoadError error={error} title="Failed to load failed messages" retry={reload} /> : null}
      {page && page.total === 0 ? <p>No failed messages.</p> : null}
      {page && page.rows.length > 0 ? (
        <>
          <TableScroll label="Failed messages">
            <table className="striped">
              <thead>
                <tr>
                  <th scope="col">#</th>
                  <th scope="col">Channel</th>
                  <th scope="col">Kind</th>
                  <th scope="col">Account</th>
                  <th scope="col">Attempts</th>
                  <th scope="col">Last error</th>
                  <th scope="col">Queued</th>
                  <th scope="col">
                    <span className="visually-hidden">Action</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {page.rows.map((r) => (
                  <tr key={r.id} data-testid="failed-row">
                    <td>{r.id}</td>
                    <td>{channelName(names, r.channel)}</td>
                    <td>{r.kind}</td>
                    <td>{r.email ?? (r.userId ? `#${r.userId}` : '—')}</td>
                    <td>{r.attempts}</td>
                    <td className="ad-error-text">{r.lastError ?? '—'}</td>
                    <td>{formatDate(r.createdAt)}</td>
                    <td>
                      <button type="button" className="secondary small" disabled={busy !== null} aria-busy={busy === r.id} onClick={() => onRetry(r.id)}>
                        Retry<span className="visually-hidden"> message {r.id}</span>
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
          {page.pages > 1 ? (
            <nav className="ad-pager" aria-label="Failed messages pages">
              <button type="button" className="secondary outline" disabled={page.page <= 1} onClick={() => onPage(page.page - 1)}>
                Previous
              </button>
              <span>
                Page {page.page} of {page.pages}
              </span>
              <button type="button" className="secondary outline" disabled={page.page >= page.pages} onClick={() => onPage(page.page + 1)}>
                Next
              </button>
            </nav>
          ) : null}
        </>
      ) : null}
    </section>
  )
}
