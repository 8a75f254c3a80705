// 'Sellers Dibs never alerts on' on Admin → Alerts (src/forums/blocked-sellers.ts): the list, a form to add a seller
// with a reason, a button to take one off. Every change is audited by the server.
import { useEffect, useState } from 'react'
import { api, ApiError, call, type Answer } from '../../../client'
import { formatDate } from '../../../lib/dates'
import { errorToast } from '../../../toast'

type Seller = Answer<(typeof api.admin)['blocked-sellers']['get']>['sellers'][number]

export function BlockedSellers() {
  const [sellers, setSellers] = useState<Seller[] | null>(null)
  const [form, setForm] = useState({ name: '', reason: '' })
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  useEffect(() => {
    call(api.admin['blocked-sellers'].get())
      .then((r) => setSellers(r.sellers))
      .catch(() => setSellers([]))
  }, [])
  const run = async (change: () => Promise<{ sellers: Seller[] }>) => {
    setBusy(true)
    setError(null)
    try {
      setSellers((await change()).sellers)
      return true
    } catch (err) {
      if (err instanceof ApiError && err.status === 400) setError(err.message)
      else errorToast('Failed to change the seller list')
      return false
    } finally {
      setBusy(false)
    }
  }
  return (
    <section className="ad-card" aria-labelledby="blocked-sellers" data-testid="blocked-sellers">
      <h2 id="blocked-sellers">Sellers Dibs never alerts on</h2>
      <p className="muted">
        <small>Posts by these sellers match no term. Each change is in the audit log.</small>
      </p>
      <form
        onSubmit={(e) => {
          e.preventDefault()
          void run(() => call(api.admin['blocked-sellers'].post(form))).then((ok) => ok && setForm({ name: '', reason: '' }))
        }}
      >
        <div className="grid">
          <label>
            Seller
            <input
              name="seller"
              required
              placeholder="u/name"
              value={form.name}
              onChange={(e) => setForm({ ...form, name: e.currentTarget.value })}
              aria-invalid={error ? true : undefined}
            />
          </label>
          <label>
            Reason
            <input
              name="reason"
              placeholder="Universal Scammer List"
              value={form.reason}
              onChange={(e) => setForm({ ...form, reason: e.currentTarget.value })}
            />
          </label>
        </div>
        {error ? <small role="alert">{error}</small> : null}
        <button type="submit" className="small" disabled={busy}>
          Never alert on this seller
        </button>
      </form>
      {sellers === null ? (
        <p aria-busy="true">Loading…</p>
      ) : sellers.length === 0 ? (
        <p>No seller is on the list.</p>
      ) : (
        <ul className="ad-plain">
          {sellers.map((s) => (
            <li key={s.name}>
              u/{s.name}
              {s.reason ? ` · ${s.reason}` : ''} · since {formatDate(s.createdAt)}{' '}
              <button
                type="button"
                className="outline secondary small"
                disabled={busy}
                aria-label={`Allow alerts on u/${s.name} again`}
                onClick={() => void run(() => call(api.admin['blocked-sellers']({ name: encodeURIComponent(s.name) }).delete()))}
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}
