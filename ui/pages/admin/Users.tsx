// /admin/users: every account — search (email or name), filters (role, status, trial ending within
// 2 days), pages — with 'Manage' opening the account's detail and actions, and 'Add user'.
// Below 640 px each row is a card (ui/admin-users.css). Fetching and state of the list:
// ./users/useUserList.ts; this file renders.
import { useState } from 'react'
import { useSignals } from '@preact/signals-react/runtime'
import { AdminLayout } from './AdminLayout'
import { me } from '../../account'
import { config } from '../../state'
import { Pagination } from '../../components/Pagination'
import { UserDetail } from './users/UserDetail'
import { AddUserDialog } from './users/AddUserDialog'
import { roleLabel, when } from './users/labels'
import { ROLE_CHOICES } from './users/types'
import { useUserList } from './users/useUserList'

const STATUSES = [
  ['', 'Any status'],
  ['active', 'Active'],
  ['inactive', 'Inactive'],
  ['banned', 'Banned'],
  ['unconfirmed', 'Not confirmed'],
] as const

export function AdminUsers() {
  useSignals()
  const product = config.value.productName
  const { search, setSearch, role, setRole, status, setStatus, trialEnding, setTrialEnding, setPage, pageSize, setPageSize, data, error, filter, reload } =
    useUserList()
  const [open, setOpen] = useState<number | null>(null)
  const [adding, setAdding] = useState(false)

  return (
    <AdminLayout title="Users" badges={data ? <span className="badge">{data.total === 1 ? '1 account' : `${data.total} accounts`}</span> : null}>
      <div className="users-toolbar">
        <label className="users-search">
          Search
          <input type="search" placeholder="Email or name" value={search} onChange={(e) => setSearch(e.target.value)} />
        </label>
        <label>
          Role
          <select value={role} onChange={filter(setRole)}>
            <option value="">Any role</option>
            {ROLE_CHOICES.map((r) => (
              <option key={r} value={r}>
                {roleLabel(r, product)}
              </option>
            ))}
          </select>
        </label>
        <label>
          Status
          <select value={status} onChange={filter(setStatus)}>
            {STATUSES.map(([v, label]) => (
              <option key={v} value={v}>
                {label}
              </option>
            ))}
          </select>
        </label>
        <label className="users-check">
          <input
            type="checkbox"
            checked={trialEnding}
            onChange={(e) => {
              setTrialEnding(e.target.checked)
              setPage(1)
            }}
          />
          Trial ending (2 days)
        </label>
        <button type="button" className="users-add" onClick={() => setAdding(true)}>
          Add user
        </button>
      </div>
      {error ? (
        <p className="admin-form-error" role="alert">
          {error}
        </p>
      ) : null}
      {data === null ? (
        error ? null : (
          <p aria-busy="true">Loading users...</p>
        )
      ) : data.users.length === 0 ? (
        <p className="muted">No accounts match.</p>
      ) : (
        <table className="users-table">
          <caption className="visually-hidden">Accounts, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Account</th>
              <th scope="col">Role</th>
              <th scope="col">Status</th>
              <th scope="col">Access until</th>
              <th scope="col">Last sign-in</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {data.users.map((u) => (
              <tr key={u.id} data-testid="user-row">
                <td data-label="Account">
                  <strong className="user-email">{u.email}</strong>
                  {u.name ? <small className="muted"> {u.name}</small> : null}
                  {!u.confirmed ? <span className="badge">Not confirmed</span> : null}
                </td>
                <td data-label="Role">
                  <span className="badge">{roleLabel(u.role, product)}</span>
                </td>
                <td data-label="Status">
                  <span className={u.banned ? 'user-status banned' : u.hasAccess ? 'user-status' : 'user-status inactive'}>{u.statusText}</span>
                  {u.trialEndingSoon ? <span className="badge users-ending">Ending soon</span> : null}
                </td>
                <td data-label="Access until">{when(u.accessExpiresAt, 'No end date')}</td>
                <td data-label="Last sign-in">{when(u.lastSignInAt, 'Never')}</td>
                <td className="user-manage">
                  <button type="button" className="outline small" aria-label={`Manage ${u.email}`} onClick={() => setOpen(u.id)}>
                    Manage
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {data ? (
        <div className="users-paging">
          <Pagination page={data.page} pages={data.pages} onPage={setPage} />
          <label>
            Per page
            <select value={pageSize} onChange={(e) => (setPageSize(Number(e.target.value)), setPage(1))}>
              {[10, 25, 50, 100].map((n) => (
                <option key={n} value={n}>
                  {n}
                </option>
              ))}
            </select>
          </label>
        </div>
      ) : null}
      {open !== null ? (
        <UserDetail userId={open} selfId={me.value?.user.id ?? null} product={product} onClose={() => setOpen(null)} onChanged={() => void reload()} />
      ) : null}
      {adding ? (
        <AddUserDialog
          product={product}
          onClose={() => setAdding(false)}
          onDone={() => {
            setAdding(false)
            void reload()
          }}
        />
      ) : null}
    </AdminLayout>
  )
}
