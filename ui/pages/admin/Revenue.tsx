// /admin/revenue: MRR and subscribers per plan, accounts by kind (paying, gifted, default plan,
// trials …), the gifted accounts, trials started / converted / expired and churn per week.
// With billing off it says so and shows the gifted and default-plan accounts. Fetching and state:
// ./revenue/useRevenue.ts; this file renders.
import { AdminLayout } from './AdminLayout'
import { useRevenue, type Report } from './revenue/useRevenue'
import { formatPrice } from '../../../src/access/plans'
import { formatDate } from '../../lib/dates'

const KINDS: [keyof Report['accounts'], string][] = [
  ['paying', 'Paying'],
  ['trial', 'On trial'],
  ['gifted', 'Gifted'],
  ['default_plan', 'Default plan'],
  ['manual', 'Plan set by an admin'],
  ['lapsed_paid', 'Lapsed subscriptions'],
  ['trial_expired', 'Trial expired'],
  ['gifted_expired', 'Gift ended'],
  ['none', 'No plan'],
  ['admin', 'Admins'],
]

const money = (cents: number) => formatPrice(cents)

export function AdminRevenue() {
  const { weeks, setWeeks, report, error } = useRevenue()
  const r = report
  return (
    <AdminLayout title="Revenue" badges={r && !r.billingEnabled ? <span className="badge">Billing off</span> : null}>
      {error ? (
        <p className="admin-form-error" role="alert">
          {error}
        </p>
      ) : null}
      {r === null ? (
        error ? null : (
          <p aria-busy="true">Loading revenue...</p>
        )
      ) : (
        <>
          {!r.billingEnabled ? (
            <p className="muted">
              Billing is off (no Stripe keys): nobody pays, so MRR is $0. Accounts get their plan from an admin (gifted) or the default plan
              {r.defaultPlan ? ` (${r.plans.find((p) => p.plan === r.defaultPlan)?.name ?? r.defaultPlan})` : ''}.
            </p>
          ) : null}
          <div className="revenue-cards">
            <article>
              <small>MRR</small>
              <span className="revenue-figure" data-testid="mrr">
                {money(r.mrrCents)}
              </span>
            </article>
            <article>
              <small>Paying subscribers</small>
              <span className="revenue-figure">{r.accounts.paying ?? 0}</span>
            </article>
            <article>
              <small>Gifted accounts</small>
              <span className="revenue-figure">{r.accounts.gifted ?? 0}</span>
            </article>
            <article>
              <small>Churn, last {r.churn.windowDays} days</small>
              <span className="revenue-figure">{r.churn.rate === null ? '—' : `${(r.churn.rate * 100).toFixed(1)}%`}</span>
              <small className="muted">
                {r.churn.churned} ended of {r.churn.payingAtStart} paying at the start
              </small>
            </article>
          </div>

          <section aria-labelledby="revenue-plans-title">
            <h2 id="revenue-plans-title">Subscribers per plan</h2>
            <div className="revenue-table-wrap" tabIndex={0} role="region" aria-labelledby="revenue-plans-title">
              <table className="revenue-table">
                <thead>
                  <tr>
                    <th scope="col">Plan</th>
                    <th scope="col" className="num">
                      Price
                    </th>
                    <th scope="col" className="num">
                      Subscribers
                    </th>
                    <th scope="col" className="num">
                      MRR
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {r.plans.map((p) => (
                    <tr key={p.plan}>
                      <th scope="row">{p.name}</th>
                      <td className="num">{money(p.priceCents)}/month</td>
                      <td className="num">{p.subscribers}</td>
                      <td className="num">{money(p.mrrCents)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </section>

          <section aria-labelledby="revenue-accounts-title">
            <h2 id="revenue-accounts-title">Accounts by kind</h2>
            <div className="revenue-table-wrap" tabIndex={0} role="region" aria-labelledby="revenue-accounts-title">
              <table className="revenue-table">
                <tbody>
                  {KINDS.map(([key, label]) => (
                    <tr key={key}>
                      <th scope="row">{label}</th>
                      <td className="num">{r.accounts[key] ?? 0}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </section>

          <section aria-labelledby="revenue-weeks-title">
            <h2 id="revenue-weeks-title">Trials and churn per week</h2>
            <label>
              Weeks
              <select value={weeks} onChange={(e) => setWeeks(Number(e.target.value))}>
                {[4, 12, 26, 52].map((n) => (
                  <option key={n} value={n}>
                    {n}
                  </option>
                ))}
              </select>
            </label>
            <div className="revenue-table-wrap" tabIndex={0} role="region" aria-labelledby="revenue-weeks-title">
              <table className="revenue-table">
                <thead>
                  <tr>
                    <th scope="col">Week of</th>
                    <th scope="col" className="num">
                      Trials started
                    </th>
                    <th scope="col" className="num">
                      Converted
                    </th>
                    <th scope="col" className="num">
                      Expired
                    </th>
                    <th scope="col" className="num">
                      Churned
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {[...r.weeks].reverse().map((w) => (
                    <tr key={w.weekStart}>
                      <th scope="row">{w.weekStart}</th>
                      <td className="num">{w.trialsStarted}</td>
                      <td className="num">{w.trialsConverted}</td>
                      <td className="num">{w.trialsExpired}</td>
                      <td className="num">{w.churned}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </section>

          <section aria-labelledby="revenue-gifted-title">
            <h2 id="revenue-gifted-title">Gifted accounts</h2>
            {r.gifted.length === 0 ? (
              <p className="muted">No gifted access running.</p>
            ) : (
              <div className="revenue-table-wrap" tabIndex={0} role="region" aria-labelledby="revenue-gifted-title">
                <table className="revenue-table">
                  <thead>
                    <tr>
                      <th scope="col">Account</th>
                      <th scope="col">Plan</th>
                      <th scope="col">Until</th>
                      <th scope="col">Granted by</th>
                    </tr>
                  </thead>
                  <tbody>
                    {r.gifted.map((g) => (
                      <tr key={g.userId}>
                        <td>{g.email}</td>
                        <td>{r.plans.find((p) => p.plan === g.plan)?.name ?? g.plan}</td>
                        <td>{g.until ? formatDate(g.until) : 'No end date'}</td>
                        <td>{g.grantedBy ?? '—'}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
          </section>
        </>
      )}
    </AdminLayout>
  )
}
