// The admins' auth debug panel (spec §6) on the Gundeals page: 'Clear Subscription Cache' (the
// access_info_cache), 'Force Refresh User Data' (a fresh GET /api/me) and 'View Cache Details'
// (what the cache holds and how old it is), beside the live connection's state and, on the
// Gundeals page, the scanner's state (GET /api/admin/scanner: the spec's next_reddit_scrape and
// scan history), loaded when the panel is opened.
import { useState } from 'react'
import { useSignals } from '@preact/signals-react/runtime'
import { me } from '../account'
import { connection, socketUser } from '../realtime'
import { cacheAge, clearAccessCache, loadAccess, readCache } from '../session'
import { toast } from '../toast'
import { unread } from '../unread'
import { api, call } from '../client'

export function AuthDebugPanel() {
  useSignals()
  const [details, setDetails] = useState<string | null>(null)
  const [scanner, setScanner] = useState<string | null>(null)
  const loadScanner = () =>
    call(api.admin.scanner.get()).then(
      (s) =>
        setScanner(
          JSON.stringify({ state: s.state, mode: s.mode, lastScanAt: s.lastScanAt, lastSuccessAt: s.lastSuccessAt, nextScanAt: s.nextScanAt }, null, 2),
        ),
      (err) => setScanner(`Scanner state unavailable: ${err instanceof Error ? err.message : String(err)}`),
    )
  const clear = () => {
    clearAccessCache()
    setDetails(null)
    toast({ title: 'Cache cleared', description: 'The subscription cache was cleared.' })
  }
  const refresh = async () => {
    const m = await loadAccess({ force: true, background: true })
    toast(
      m
        ? { title: 'User data refreshed', description: `Role: ${m.access.userRole}, access: ${m.access.hasAccess ? 'active' : 'none'}` }
        : { title: 'Error', description: 'Could not refresh user data.', variant: 'destructive' },
    )
  }
  const view = () => {
    const entry = readCache(localStorage)
    setDetails(
      entry === null
        ? 'No cached subscription data.'
        : JSON.stringify(
            {
              cachedAt: new Date(entry.timestamp).toISOString(),
              ageSeconds: Math.round((Date.now() - entry.timestamp) / 1000),
              state: cacheAge(entry),
              access: entry.data.access,
            },
            null,
            2,
          ),
    )
  }
  return (
    <details className="debug-panel" data-testid="auth-debug-panel" onToggle={(e) => (e.currentTarget.open ? void loadScanner() : undefined)}>
      <summary>Debug</summary>
      <div role="group">
        <button type="button" className="outline secondary small" onClick={clear}>
          Clear Subscription Cache
        </button>
        <button type="button" className="outline secondary small" onClick={() => void refresh()}>
          Force Refresh User Data
        </button>
        <button type="button" className="outline secondary small" onClick={view}>
          View Cache Details
        </button>
      </div>
      {details !== null ? <pre data-testid="cache-details">{details}</pre> : null}
      {scanner !== null ? <pre data-testid="scanner-debug">{scanner}</pre> : null}
      <pre>
        {JSON.stringify(
          {
            connection: connection.value,
            socketUser: socketUser.value,
            unread: unread.value,
            role: me.value?.access.userRole,
            forums: me.value?.access.forums,
          },
          null,
          2,
        )}
      </pre>
    </details>
  )
}
