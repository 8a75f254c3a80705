// /settings/subscription and /settings/account (spec §2): Quick Links and two tabs. The
// Subscription tab is the subscription page's panel (../../components/SubscriptionPanel.tsx). The Account
// tab's Change Password and Delete Account work against /api/me/password and DELETE /api/me; its
// Two-factor authentication section is ./TwoFactorSection.tsx; personal access tokens and 'Download
// my data' are ./TokensSection.tsx.
import { useState } from 'react'
import { useSignals } from '@preact/signals-react/runtime'
import { Link, useLocation } from 'wouter'
import { me } from '../../account'
import { api, ApiError, call } from '../../client'
import { AppShell } from '../../components/AppShell'
import { openModal } from '../../modals'
import { toast } from '../../toast'
import { SubscriptionPanel } from '../../components/SubscriptionPanel'
import { TwoFactorSection } from './TwoFactorSection'
import { AppearanceSection } from './AppearanceSection'
import { DevicesSection } from './DevicesSection'
import { DataExportSection, TokensSection } from './TokensSection'
import { FeedsSection } from './FeedsSection'

export function Settings({ tab }: { tab: 'subscription' | 'account' }) {
  useSignals()
  return (
    <AppShell>
      <h1>Settings</h1>
      <section className="quick-links" aria-label="Quick Links">
        <h2>Quick Links</h2>
        <ul>
          <li>
            <Link href="/archive">Archive</Link>
          </li>
          <li>
            <a href="#" onClick={(e) => (e.preventDefault(), openModal('help'))}>
              Feedback
            </a>
          </li>
          <li>
            <a href="#" onClick={(e) => (e.preventDefault(), openModal('notifications'))}>
              Notification Settings
            </a>
          </li>
        </ul>
      </section>
      <div role="tablist" className="tabs">
        <Link href="/settings/subscription" role="tab" aria-selected={tab === 'subscription'} className={tab === 'subscription' ? 'tab active' : 'tab'}>
          Subscription
        </Link>
        <Link href="/settings/account" role="tab" aria-selected={tab === 'account'} className={tab === 'account' ? 'tab active' : 'tab'}>
          Account
        </Link>
      </div>
      {tab === 'subscription' ? <SubscriptionTab /> : <AccountTab />}
    </AppShell>
  )
}

function SubscriptionTab() {
  return (
    <article>
      <SubscriptionPanel level={3} />
    </article>
  )
}

function AccountTab() {
  const [, navigate] = useLocation()
  const [current, setCurrent] = useState('')
  const [next, setNext] = useState('')
  const [confirmDelete, setConfirmDelete] = useState(false)
  const [deletePassword, setDeletePassword] = useState('')
  const changePassword = async (e: React.FormEvent) => {
    e.preventDefault()
    if (next.length < 8) {
      toast({ title: 'Error', description: 'Password must be at least 8 characters long', variant: 'destructive' })
      return
    }
    try {
      const r = await call(api.me.password.post({ currentPassword: current, newPassword: next }))
      toast({ title: 'Password changed', description: r?.message ?? 'Your password has been changed.' })
      setCurrent('')
      setNext('')
    } catch (err) {
      toast({ title: 'Error', description: err instanceof ApiError ? err.message : 'Failed to change password.', variant: 'destructive' })
    }
  }
  const deleteAccount = async () => {
    try {
      await call(api.me.delete({ password: deletePassword }))

      me.value = null
      toast({ title: 'Account deleted', description: 'Your account has been deleted.' })
      navigate('/')
    } catch (err) {
      toast({ title: 'Error', description: err instanceof ApiError ? err.message : 'Failed to delete account.', variant: 'destructive' })
    }
  }
  return (
    <article>
      <h3>Account</h3>
      <AppearanceSection />
      <hr />
      <DevicesSection />
      <hr />
      <FeedsSection />
      <hr />
      <form onSubmit={changePassword}>
        <input
          type="password"
          name="currentPassword"
          placeholder="Current password"
          aria-label="Current password"
          autoComplete="current-password"
          value={current}
          onChange={(e) => setCurrent(e.target.value)}
        />
        <input
          type="password"
          name="newPassword"
          placeholder="New password"
          aria-label="New password"
          autoComplete="new-password"
          value={next}
          onChange={(e) => setNext(e.target.value)}
        />
        <button type="submit">Change Password</button>
      </form>
      <hr />
      <TwoFactorSection />
      <hr />
      <TokensSection />
      <hr />
      <DataExportSection />
      <hr />
      {confirmDelete ? (
        <div role="alert">
          <p>This deletes your account, search terms and matches. It cannot be undone.</p>
          <input
            type="password"
            placeholder="Password"
            aria-label="Password to confirm"
            value={deletePassword}
            onChange={(e) => setDeletePassword(e.target.value)}
          />
          <div className="grid">
            <button type="button" className="secondary" onClick={() => setConfirmDelete(false)}>
              Cancel
            </button>
            <button type="button" className="danger" onClick={deleteAccount}>
              Delete my account
            </button>
          </div>
        </div>
      ) : (
        <button type="button" className="danger outline" onClick={() => setConfirmDelete(true)}>
          Delete Account
        </button>
      )}
    </article>
  )
}
