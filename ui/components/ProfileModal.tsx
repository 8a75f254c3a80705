// Profile (spec §2, §5): email read-only ('Email cannot be changed'), name editable; Reset and Save Changes.
import { useState } from 'react'
import { useSignals } from '@preact/signals-react/runtime'
import { me } from '../account'
import { api, ApiError, call } from '../client'
import { toast } from '../toast'
import { Modal } from './Modal'

export function ProfileModal({ onClose }: { onClose: () => void }) {
  useSignals()
  const user = me.value?.user
  const [name, setName] = useState(user?.name ?? '')
  const [saving, setSaving] = useState(false)
  const save = async (e: React.FormEvent) => {
    e.preventDefault()
    setSaving(true)
    try {
      const r = await call(api.me.patch({ name: name.trim() }))

      if (me.value) me.value = { ...me.value, user: { ...me.value.user, name: r?.user?.name ?? name.trim() } }
      toast({ title: 'Profile updated', description: 'Your changes have been saved.' })
      onClose()
    } catch (err) {
      // The server says what is wrong ('Please enter your name.', 'Name must be at most 100 characters long').
      const reason = err instanceof ApiError && err.status === 400 ? err.message : 'Failed to update profile'
      toast({ title: 'Error', description: reason, variant: 'destructive' })
    } finally {
      setSaving(false)
    }
  }
  return (
    <Modal onClose={onClose} aria-labelledby="profile-title">
      <article>
        <header>
          <button type="button" aria-label="Close" rel="prev" className="close-x" onClick={onClose} />
          <h3 id="profile-title">Profile</h3>
        </header>
        <form onSubmit={save}>
          <label>
            Email
            <input type="email" value={user?.email ?? ''} readOnly aria-describedby="email-help" />
            <small id="email-help">Email cannot be changed</small>
          </label>
          <label>
            Name
            <input name="name" value={name} onChange={(e) => setName(e.target.value)} autoComplete="name" />
          </label>
          <footer>
            <button type="button" className="secondary" onClick={() => setName(user?.name ?? '')}>
              Reset
            </button>
            <button type="submit" aria-busy={saving} disabled={saving}>
              Save Changes
            </button>
          </footer>
        </form>
      </article>
    </Modal>
  )
}
