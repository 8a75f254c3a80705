// 'Add user': a confirmed account with a password (signs in at once), or an invitation by email
// (a link to set a password). Optionally with a role; without one the account starts like a
// confirmed sign-up (trial, or the default plan while billing is off).
import { useState } from 'react'
import { api, call } from '../../../client'
import { ActionDialog } from './ActionDialog'
import { roleLabel } from './labels'
import { ROLE_CHOICES } from './types'

export function AddUserDialog({ product, onClose, onDone }: { product: string; onClose: () => void; onDone: () => void }) {
  const [email, setEmail] = useState('')
  const [name, setName] = useState('')
  const [mode, setMode] = useState<'confirmed' | 'invited'>('invited')
  const [password, setPassword] = useState('')
  const [role, setRole] = useState('')
  return (
    <ActionDialog
      title="Add user"
      confirmLabel={mode === 'invited' ? 'Send invitation' : 'Create account'}
      canSubmit={email.trim() !== '' && (mode === 'invited' || password !== '')}
      run={async () => {
        const r = await call(api.admin.users.post({ email, name, mode, password: mode === 'confirmed' ? password : undefined, role: role || undefined }))
        return r.message
      }}
      onDone={onDone}
      onClose={onClose}
    >
      <label>
        Email
        <input type="email" autoComplete="off" required value={email} onChange={(e) => setEmail(e.target.value)} />
      </label>
      <label>
        Name (optional)
        <input type="text" autoComplete="off" value={name} onChange={(e) => setName(e.target.value)} />
      </label>
      <fieldset>
        <legend>How they get in</legend>
        <label>
          <input type="radio" name="add-mode" checked={mode === 'invited'} onChange={() => setMode('invited')} />
          Invite by email
        </label>
        <label>
          <input type="radio" name="add-mode" checked={mode === 'confirmed'} onChange={() => setMode('confirmed')} />
          Confirmed, with a password
        </label>
      </fieldset>
      {mode === 'confirmed' ? (
        <label>
          Password (at least 8 characters)
          <input type="password" autoComplete="new-password" minLength={8} value={password} onChange={(e) => setPassword(e.target.value)} />
        </label>
      ) : (
        <small className="muted">They get an email with a link (valid 7 days) to set their password.</small>
      )}
      <label>
        Role
        <select value={role} onChange={(e) => setRole(e.target.value)}>
          <option value="">Default (as a new sign-up)</option>
          {ROLE_CHOICES.map((r) => (
            <option key={r} value={r}>
              {roleLabel(r, product)}
            </option>
          ))}
        </select>
      </label>
    </ActionDialog>
  )
}
