// One account in a dialog: who they are, access and billing state, saved terms per category,
// match counts, notification settings, last sign-in, the audit rows about them, and the actions.
import { dealsName } from '../../../state'
import { useCallback, useEffect, useState } from 'react'
import { api, ApiError, call } from '../../../client'
import { Modal } from '../../../components/Modal'
import { UserActions } from './UserActions'
import { roleLabel, when } from './labels'
import type { UserDetailData } from './types'

const CATEGORIES = [
  ['wts', 'WTS'],
  ['wtb', 'WTB'],
  ['gd', 'gd'],
] as const

export function UserDetail({
  userId,
  selfId,
  product,
  onClose,
  onChanged,
}: {
  userId: number
  selfId: number | null
  product: string
  onClose: () => void
  onChanged: () => void
}) {
  const [data, setData] = useState<UserDetailData | null>(null)
  const [error, setError] = useState<string | null>(null)
  const load = useCallback(async () => {
    try {
      setData(await call(api.admin.users({ id: userId }).get()))
      setError(null)
    } catch (err) {
      setError(err instanceof ApiError ? err.message : 'Failed to load this account.')
    }
  }, [userId])
  useEffect(() => void load(), [load])
  const u = data?.user
  return (
    <Modal className="user-detail-dialog" aria-labelledby="user-detail-title" onClose={onClose}>
      <article>
        <header>
          <button type="button" aria-label="Close" rel="prev" className="close-x" onClick={onClose} />
          <h3 id="user-detail-title">{u ? u.email : 'Account'}</h3>
        </header>
        {error ? (
          <p className="admin-form-error" role="alert">
            {error}
          </p>
        ) : null}
        {data === null || u === undefined ? (
          error ? null : (
            <p aria-busy="true">Loading account...</p>
          )
        ) : (
          <>
            <dl className="user-facts">
              <dt>Name</dt>
              <dd>{u.name || '—'}</dd>
              <dt>Role</dt>
              <dd>
                <span className="badge">{roleLabel(u.role, product)}</span>
                {u.adminByConfig ? <small className="muted"> (ADMIN_EMAILS)</small> : null}
              </dd>
              <dt>Status</dt>
              <dd>
                {u.statusText}
                {data.access.daysLeft !== null ? ` · ${data.access.daysLeft} day${data.access.daysLeft === 1 ? '' : 's'} left` : ''}
              </dd>
              <dt>Email</dt>
              <dd>{u.confirmed ? 'Confirmed' : 'Not confirmed'}</dd>
              <dt>Sign-in</dt>
              <dd>
                {[u.hasPassword ? 'password' : null, ...u.providers].filter(Boolean).join(', ') || 'none yet'}
                {u.twoFactor ? ' · two-factor on' : ''}
              </dd>
              <dt>Joined</dt>
              <dd>{when(u.createdAt)}</dd>
              <dt>Last sign-in</dt>
              <dd>
                {when(u.lastSignInAt, 'Never (or signed out since)')} · {data.sessions} active session{data.sessions === 1 ? '' : 's'}
              </dd>
            </dl>
            <section aria-labelledby="user-billing-title">
              <h4 id="user-billing-title">Billing</h4>
              <dl className="user-facts">
                <dt>Stored role</dt>
                <dd>{roleLabel(data.billing.role, product)}</dd>
                <dt>Subscription status</dt>
                <dd>{data.billing.subscriptionStatus ?? '—'}</dd>
                <dt>Access until</dt>
                <dd>{when(data.billing.accessExpiresAt, 'No end date')}</dd>
                <dt>Granted by</dt>
                <dd>{data.billing.grantedBy ?? '—'}</dd>
                <dt>Stripe</dt>
                <dd>{data.billing.stripeSubscriptionId ? `${data.billing.stripeCustomerId} · ${data.billing.stripeSubscriptionId}` : 'No subscription'}</dd>
              </dl>
            </section>
            <section aria-labelledby="user-terms-title">
              <h4 id="user-terms-title">Search terms and matches</h4>
              <div className="user-terms">
                {CATEGORIES.map(([key, short]) => {
                  const label = key === 'gd' ? dealsName() : short
                  const terms = data.terms[key] ?? []
                  const m = data.matchCounts[key] ?? { total: 0, unread: 0, archived: 0 }
                  return (
                    <div key={key} data-testid={`terms-${key}`}>
                      <strong>{label}</strong>{' '}
                      <small className="muted">
                        {m.total} matches · {m.unread} unread · {m.archived} archived
                      </small>
                      {terms.length === 0 ? (
                        <p className="muted">No terms</p>
                      ) : (
                        <ul>
                          {terms.map((t) => (
                            <li key={t.id}>
                              <code>{t.term}</code>
                              {t.paused ? <small className="muted"> (paused)</small> : null}
                            </li>
                          ))}
                        </ul>
                      )}
                    </div>
                  )
                })}
              </div>
            </section>
            <section aria-labelledby="user-notify-title">
              <h4 id="user-notify-title">Notifications</h4>
              <p>
                Email: {data.notifications.emailFrequency} · Web push: {data.notifications.webPushEnabled ? 'on' : 'off'} ({data.notifications.pushDevices}{' '}
                device
                {data.notifications.pushDevices === 1 ? '' : 's'}){data.notifications.defaults ? ' · defaults' : ''}
              </p>
            </section>
            <UserActions
              data={data}
              selfId={selfId}
              product={product}
              onChanged={(deleted) => {
                onChanged()
                if (deleted) onClose()
                else void load()
              }}
            />
            <section aria-labelledby="user-audit-title">
              <h4 id="user-audit-title">Admin activity</h4>
              {data.audit.length === 0 ? (
                <p className="muted">No admin actions on this account yet.</p>
              ) : (
                <ul className="user-audit">
                  {data.audit.map((a) => (
                    <li key={a.id}>
                      <small>
                        {when(a.at)} · {a.actor} · <code>{a.action}</code> {a.result === 'ok' ? '' : <strong className="admin-failed">failed</strong>}
                        {a.details?.error ? ` (${String(a.details.error)})` : ''}
                      </small>
                    </li>
                  ))}
                </ul>
              )}
            </section>
          </>
        )}
      </article>
    </Modal>
  )
}
