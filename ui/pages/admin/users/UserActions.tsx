// The per-account actions of the Users page, each behind its own dialog (./ActionDialog.tsx):
// change role, gifted access, extend / end trial, ban / unban, password-reset email, sign out
// everywhere, two-factor reset and delete (typed confirmation). The server refuses what an admin
// may not do to their own account; the buttons for it are not shown either.
import { useState } from 'react'
import { api, call } from '../../../client'
import { plans } from '../../../../src/access/plans'
import { ActionDialog } from './ActionDialog'
import { dayInput, roleLabel } from './labels'
import { ROLE_CHOICES, type UserDetailData } from './types'

type Kind = 'role' | 'grant' | 'extend' | 'end' | 'ban' | 'unban' | 'reset' | 'signout' | '2fa' | 'delete'

export function UserActions({
  data,
  selfId,
  product,
  onChanged,
}: {
  data: UserDetailData
  selfId: number | null
  product: string
  onChanged: (deleted?: boolean) => void
}) {
  const u = data.user
  const self = u.id === selfId
  const [open, setOpen] = useState<Kind | null>(null)
  const [role, setRole] = useState(u.storedRole)
  const [plan, setPlan] = useState('product+gd')
  const [until, setUntil] = useState(dayInput(30))
  const [days, setDays] = useState('7')
  const [confirm, setConfirm] = useState('')
  const user = api.admin.users({ id: u.id })
  const close = () => setOpen(null)
  const done = (deleted?: boolean) => {
    setOpen(null)
    onChanged(deleted)
  }
  const onTrial = u.storedRole === 'app_trial' || u.storedRole === 'trial_expired'
  const buttons: { kind: Kind; label: string; show: boolean; danger?: boolean }[] = [
    { kind: 'role', label: 'Change role', show: !u.adminByConfig },
    { kind: 'grant', label: 'Grant gifted access', show: !self && !u.adminByConfig },
    { kind: 'extend', label: 'Extend trial', show: onTrial },
    { kind: 'end', label: 'End trial', show: u.storedRole === 'app_trial' && u.hasAccess },
    { kind: 'reset', label: 'Send password reset', show: !u.banned },
    { kind: 'signout', label: 'Sign out all devices', show: true },
    { kind: '2fa', label: 'Reset two-factor', show: u.twoFactor },
    { kind: 'unban', label: 'Unban', show: !self && u.banned },
    { kind: 'ban', label: 'Ban', show: !self && !u.banned, danger: true },
    { kind: 'delete', label: 'Delete account', show: !self, danger: true },
  ]
  return (
    <section aria-labelledby="user-actions-title" className="user-actions">
      <h4 id="user-actions-title">Actions</h4>
      <div className="user-action-buttons">
        {buttons
          .filter((b) => b.show)
          .map((b) => (
            <button
              key={b.kind}
              type="button"
              className={b.danger ? 'outline admin-danger-outline small' : 'outline secondary small'}
              onClick={() => setOpen(b.kind)}
            >
              {b.label}
            </button>
          ))}
      </div>
      {open === 'role' ? (
        <ActionDialog
          title={`Change role of ${u.email}`}
          confirmLabel="Save role"
          canSubmit={role !== u.storedRole}
          run={async () => {
            await call(user.role.post({ role }))
            return `${u.email} is now ${roleLabel(role, product)}.`
          }}
          onDone={done}
          onClose={close}
        >
          <label>
            Role
            <select value={role} onChange={(e) => setRole(e.target.value)}>
              {ROLE_CHOICES.filter((r) => !self || r === 'admin').map((r) => (
                <option key={r} value={r}>
                  {roleLabel(r, product)}
                </option>
              ))}
            </select>
          </label>
          <small className="muted">Plan roles become active without an end date; Active Trial runs 7 days from now.</small>
        </ActionDialog>
      ) : null}
      {open === 'grant' ? (
        <ActionDialog
          title={`Grant gifted access to ${u.email}`}
          confirmLabel="Grant access"
          canSubmit={until !== ''}
          run={async () => {
            await call(user.grant.post({ plan, until }))
            return `${u.email} has gifted access until ${until}.`
          }}
          onDone={done}
          onClose={close}
        >
          <label>
            Plan
            <select value={plan} onChange={(e) => setPlan(e.target.value)}>
              {plans(product).map((p) => (
                <option key={p.id} value={p.id}>
                  {p.name}
                </option>
              ))}
            </select>
          </label>
          <label>
            Until (end of the day, UTC)
            <input type="date" value={until} min={dayInput(0)} onChange={(e) => setUntil(e.target.value)} />
          </label>
        </ActionDialog>
      ) : null}
      {open === 'extend' ? (
        <ActionDialog
          title={`Extend the trial of ${u.email}`}
          confirmLabel="Extend trial"
          run={async () => {
            const r = await call(user.trial.post({ action: 'extend', days: Number(days) }))
            return 'until' in r ? `The trial now ends ${new Date(r.until).toLocaleDateString()}.` : 'The trial has ended.'
          }}
          onDone={done}
          onClose={close}
        >
          <label>
            Days to add (1–90)
            <input type="number" inputMode="numeric" min={1} max={90} value={days} onChange={(e) => setDays(e.target.value)} />
          </label>
          <small className="muted">Added to the current end, or to today when the trial already ended.</small>
        </ActionDialog>
      ) : null}
      {open === 'end' ? (
        <Confirm
          title={`End the trial of ${u.email}?`}
          text="Their access stops now and they see the plan prompt."
          label="End trial"
          run={() => call(user.trial.post({ action: 'end' }))}
          toast="The trial has ended."
          onDone={done}
          onClose={close}
        />
      ) : null}
      {open === 'ban' ? (
        <Confirm
          title={`Ban ${u.email}?`}
          text="They are signed out on every device at once and cannot sign in until unbanned."
          label="Ban"
          danger
          run={() => call(user.ban.post())}
          toast={`${u.email} is banned and signed out.`}
          onDone={done}
          onClose={close}
        />
      ) : null}
      {open === 'unban' ? (
        <Confirm
          title={`Unban ${u.email}?`}
          text="They can sign in again."
          label="Unban"
          run={() => call(user.unban.post())}
          toast={`${u.email} can sign in again.`}
          onDone={done}
          onClose={close}
        />
      ) : null}
      {open === 'reset' ? (
        <Confirm
          title="Send a password-reset email?"
          text={`${u.email} gets a link to set a new password (valid 1 hour).`}
          label="Send email"
          run={() => call(user['password-reset'].post())}
          toast={`Password-reset email sent to ${u.email}.`}
          onDone={done}
          onClose={close}
        />
      ) : null}
      {open === 'signout' ? (
        <Confirm
          title={`Sign ${u.email} out on all devices?`}
          text="Every session ends now; open tabs go to the sign-in page."
          label="Sign out all devices"
          run={() => call(user['sign-out'].post())}
          toast={`${u.email} was signed out everywhere.`}
          onDone={done}
          onClose={close}
        />
      ) : null}
      {open === '2fa' ? (
        <Confirm
          title="Reset two-factor sign-in?"
          text="Two-factor authentication is turned off, every session ends and the owner is emailed. Use it when they lost their phone and recovery codes."
          label="Reset two-factor"
          run={() => call(user['reset-2fa'].post())}
          toast="Two-factor sign-in is off for this account."
          onDone={done}
          onClose={close}
        />
      ) : null}
      {open === 'delete' ? (
        <ActionDialog
          title={`Delete ${u.email}?`}
          confirmLabel="Delete account"
          danger
          canSubmit={confirm.trim().toLowerCase() === u.email}
          run={async () => {
            await call(user.delete({ confirm }))
            return `${u.email} was deleted.`
          }}
          onDone={() => done(true)}
          onClose={close}
        >
          <p>The account, its terms, matches, settings and sessions are removed for good. This action cannot be undone.</p>
          <label>
            Type <strong>{u.email}</strong> to confirm
            <input type="text" autoComplete="off" spellCheck={false} value={confirm} onChange={(e) => setConfirm(e.target.value)} />
          </label>
        </ActionDialog>
      ) : null}
    </section>
  )
}

function Confirm(p: {
  title: string
  text: string
  label: string
  danger?: boolean
  run: () => Promise<unknown>
  toast: string
  onDone: () => void
  onClose: () => void
}) {
  return (
    <ActionDialog
      title={p.title}
      confirmLabel={p.label}
      danger={p.danger}
      run={async () => {
        await p.run()
        return p.toast
      }}
      onDone={p.onDone}
      onClose={p.onClose}
    >
      <p>{p.text}</p>
    </ActionDialog>
  )
}
