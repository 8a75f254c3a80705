// Frame of every signed-in subscriber page: navigation, the app-level modals, the live socket and
// unread counts. Gating (loading, sign-in, overlay) belongs to <Protected/> around the routes; this
// shell still sends a signed-out visitor to /login on its own so the pages never render without a user.
import { useEffect } from 'react'
import { useSignals } from '@preact/signals-react/runtime'
import { Redirect, useLocation, useSearch } from 'wouter'
import { me } from '../account'
import { handleCheckoutReturn } from '../billing'
import { initAuth, loadAccess, signedOutLocally, signingOut } from '../session'
import { toast } from '../toast'
import { loginPathFor } from '../lib/return-to'
import { closeModal, modal, openModal } from '../modals'
import { onMessage, startRealtime } from '../realtime'
import { loadUnread, wireUnread } from '../unread'
import { AppNav } from './AppNav'
import { HelpModal } from './HelpModal'
import { ProfileModal } from './ProfileModal'
import { UpgradeDialog } from './UpgradeDialog'
import { TrialEndingPrompt } from './TrialStatus'
import { NotificationSettingsModal } from './notification-settings'

let accessWired = false

export function AppShell({ children }: { children: React.ReactNode }) {
  useSignals()
  const [location] = useLocation()
  const search = useSearch()
  useEffect(() => {
    if (me.value === undefined) void initAuth()
    const refresh = () => loadAccess({ force: true, background: true })
    startRealtime({ refresh })
    wireUnread()
    // ?open=notifications (the unsubscribe page's button, through sign-in if needed) opens that dialog
    if (new URLSearchParams(window.location.search).get('open') === 'notifications') openModal('notifications')
    // Back from a checkout that had to leave the page (?session_id=…): the same success path as the embedded one.
    void handleCheckoutReturn()
    if (!accessWired) {
      accessWired = true
      onMessage('access.changed', () => void refresh())
      onMessage('session-revoked', () => {
        if (me.value === null || signingOut) return
        signedOutLocally()
        toast({ title: 'Signed out', description: 'Your session ended on another device or was revoked. Please sign in again.' })
      })
    }
  }, [])
  const userId = me.value?.user.id
  useEffect(() => {
    if (userId === undefined) return
    void loadUnread().catch(() => {})
  }, [userId])

  if (me.value === null) return <Redirect to={loginPathFor({ pathname: location, search: search ? `?${search}` : '' })} replace />
  return (
    <div className="app-shell">
      <AppNav />
      <main className="container app-main">
        <TrialEndingPrompt />
        {me.value === undefined ? <p aria-busy="true">Loading your account information...</p> : children}
      </main>
      {modal.value === 'profile' ? <ProfileModal onClose={closeModal} /> : null}
      {modal.value === 'help' ? <HelpModal onClose={closeModal} /> : null}
      {modal.value === 'subscription' ? <UpgradeDialog onClose={closeModal} /> : null}
      {modal.value === 'notifications' ? <NotificationSettingsModal onClose={closeModal} /> : null}
    </div>
  )
}
