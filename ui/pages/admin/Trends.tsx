// /admin/trends: daily charts over 7 / 30 / 90 UTC days (GET /api/admin/trends) — posts per forum,
// matches per category, new accounts, post→alert latency p50/p95 — and the 20 most saved terms.
import { dealsName } from '../../state'
import { useMemo, useState } from 'react'
import { useSignals } from '@preact/signals-react/runtime'
import { api, call, type Answer } from '../../client'
import { config } from '../../state'
import { AdminLayout } from './AdminLayout'
import { AlertLatencyCard } from './AlertLatency'
import { CHART_COLORS, DataChart, type ChartSeries } from './DataChart'
import { formatCount, formatSeconds, peakSummary } from './data-format'
import { LoadError, RangePicker, useAdminData, type Range } from './RangePicker'
import { TableScroll } from './TableScroll'

const latencySummary = peakSummary(formatSeconds)

export function AdminTrends() {
  useSignals()
  const [days, setDays] = useState<Range>(7)
  const { data, error, reload } = useAdminData(
    `/api/admin/trends?days=${days}`,
    () => call(api.admin.trends.get({ query: { days: `${days}` } })),
    'Failed to load trends',
  )

  const product = config.value.productName
  const charts = useMemo(() => {
    if (!data) return null
    const [blue, amber, green, red] = CHART_COLORS as [string, string, string, string]
    const posts: ChartSeries[] = [
      { label: product, values: data.postsPerForum.product ?? [], color: blue },
      { label: dealsName(), values: data.postsPerForum.gd ?? [], color: amber },
    ]
    const matches: ChartSeries[] = [
      { label: 'WTS', values: data.matchesPerCategory.wts ?? [], color: blue },
      { label: 'WTB', values: data.matchesPerCategory.wtb ?? [], color: green },
      { label: dealsName(), values: data.matchesPerCategory.gd ?? [], color: amber },
    ]
    const accounts: ChartSeries[] = [{ label: 'New accounts', values: data.newAccounts, color: green }]
    const latency: ChartSeries[] = [
      { label: 'p50', values: data.latency.p50, color: blue },
      { label: 'p95', values: data.latency.p95, color: red, dash: [6, 4] },
    ]
    return { posts, matches, accounts, latency }
  }, [data, product])
  const archivedBefore = data?.oldestPostAt && data.oldestPostAt.slice(0, 10) > (data.labels[0] ?? '') ? data.oldestPostAt.slice(0, 10) : null

  return (
    <AdminLayout title="Trends">
      <div className="ad-toolbar">
        <RangePicker value={days} onChange={setDays} />
        <small className="ad-muted">Days are UTC days; days without data count as 0.</small>
      </div>
      {error && !data ? <LoadError error={error} title="Failed to load trends" retry={reload} /> : null}
      {data && charts ? (
        <div className="ad-grid" aria-busy={data.days !== days}>
          <DataChart id="posts" title="Posts per day by forum" labels={data.labels} series={charts.posts} />
          <DataChart id="matches" title="Matches per day by category" labels={data.labels} series={charts.matches} />
          <DataChart id="accounts" title="New accounts per day" labels={data.labels} series={charts.accounts} />
          <DataChart
            id="latency"
            title="Post→alert latency per day"
            description="seconds from the Reddit post to its live match (p50 median, p95); empty on days without live matches"
            labels={data.labels}
            series={charts.latency}
            unit="s"
            format={formatSeconds}
            summarize={latencySummary}
          />
          {archivedBefore ? (
            <p className="ad-note">
              Posts created before {archivedBefore} have been archived (deleted), so earlier days show fewer posts. Their matches are kept.
            </p>
          ) : null}
          <AlertLatencyCard className="ad-card ad-wide" />
          <TopTerms terms={data.topTerms} days={data.days} />
        </div>
      ) : !error ? (
        <p aria-busy="true">Loading trends...</p>
      ) : null}
    </AdminLayout>
  )
}

function TopTerms({ terms, days }: { terms: Answer<typeof api.admin.trends.get>['topTerms']; days: number }) {
  return (
    <section className="ad-card" aria-labelledby="top-terms-title">
      <h2 id="top-terms-title">Most saved search terms</h2>
      {terms.length === 0 ? (
        <p>No saved search terms yet.</p>
      ) : (
        <TableScroll label="Most saved search terms">
          <table className="striped">
            <thead>
              <tr>
                <th scope="col">Term</th>
                <th scope="col">Saved</th>
                <th scope="col">Users</th>
                <th scope="col">Categories</th>
                <th scope="col">Matches ({days} days)</th>
              </tr>
            </thead>
            <tbody>
              {terms.map((t) => (
                <tr key={t.term}>
                  <th scope="row">
                    <code>{t.term}</code>
                  </th>
                  <td>{formatCount(t.saves)}</td>
                  <td>{formatCount(t.users)}</td>
                  <td>{t.categories.map((c) => c.toUpperCase()).join(', ')}</td>
                  <td>{formatCount(t.matches)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
    </section>
  )
}
