// Dashboard start (spec §2): 'Loading Dashboard...' for about 1 s on the first load of the
// session, 'Failed to initialize dashboard' when the start fails, and the 'Connection issue
// detected' panel in place of the page while the live connection is in error.
import { useEffect, useState } from 'react'
import { useSignals } from '@preact/signals-react/runtime'
import { connection, manualReload, onMessage } from '../../realtime'
import { loadUnread } from '../../unread'
import { toast } from '../../toast'
import { ApiError } from '../../client'

export const DASHBOARD_START_DELAY_MS = 1000
/** sessionStorage: the start screen ran in this tab; later full page loads skip its 1-second wait. */
export const STARTED_KEY = 'dashboard_started'
let started = false

function startedBefore(): boolean {
  try {
    return started || sessionStorage.getItem(STARTED_KEY) !== null
  } catch {
    return started
  }
}
let gaveUpWired = false

export function ConnectionIssue() {
  return (
    <article className="connection-issue" role="alert">
      <h2>Connection issue detected</h2>
      <p>We're having trouble connecting to the server. Try refreshing the page.</p>
      <ul>
        <li>Refresh the page to reconnect.</li>
        <li>Check that scanning is active (an administrator may have paused it).</li>
        <li>Check your internet connection.</li>
      </ul>
      <button type="button" onClick={manualReload}>
        Reload
      </button>
    </article>
  )
}

export function DashboardFrame({ children }: { children: React.ReactNode }) {
  useSignals()
  const [phase, setPhase] = useState<'loading' | 'ready' | 'failed'>(startedBefore() ? 'ready' : 'loading')
  useEffect(() => {
    if (!gaveUpWired) {
      gaveUpWired = true
      onMessage('gave-up', () =>
        toast({ title: 'Connection issue detected', description: "We're having trouble connecting to the server. Try reloading.", variant: 'destructive' }),
      )
    }
    if (startedBefore()) {
      started = true
      void loadUnread().catch(() => {})
      return
    }
    let cancelled = false
    const init = Promise.all([loadUnread(), new Promise((r) => setTimeout(r, DASHBOARD_START_DELAY_MS))])
    init
      .then(() => {
        started = true
        try {
          sessionStorage.setItem(STARTED_KEY, String(Date.now()))
        } catch {}
        if (!cancelled) setPhase('ready')
      })
      .catch((err) => {
        if (cancelled) return
        if (err instanceof ApiError && err.status === 401) return
        setPhase('failed')
        toast({ title: 'Initialization Error', description: 'Failed to initialize dashboard. Please try reloading.', variant: 'destructive' })
      })
    return () => {
      cancelled = true
    }
  }, [])

  if (phase === 'loading')
    return (
      <div className="centered dashboard-loading" aria-busy="true">
        <div>
          <h2>Loading Dashboard...</h2>
          <p className="muted">This may take a moment while we connect to Reddit</p>
        </div>
      </div>
    )
  if (phase === 'failed')
    return (
      <div className="centered">
        <div>
          <p role="alert">Failed to initialize dashboard. Please try reloading the page.</p>
          <button type="button" onClick={() => window.location.reload()}>
            Reload Dashboard
          </button>
        </div>
      </div>
    )
  if (connection.value === 'error') return <ConnectionIssue />
  return <>{children}</>
}
