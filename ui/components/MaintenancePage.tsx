// What a signed-in non-admin sees while maintenance mode is on (src/web/maintenance-mode.ts answers
// their API calls 503 meanwhile). It asks again every 30 s and on 'Try again'; when the answer no
// longer carries the maintenance header, <Protected> shows the page they came for.
import { useEffect, useState } from 'react'
import { api, call } from '../client'
import { logout } from '../account'
import { MAINTENANCE_RECHECK_MS } from '../maintenance'

export const MAINTENANCE_TITLE = 'Down for maintenance'
export const MAINTENANCE_TEXT = 'Dibs is being maintained right now. Your saved searches keep running and alerts still go out; please check back shortly.'

async function recheck() {
  try {
    await call(api.unread.get())
  } catch {
    // still in maintenance (503) or offline: the header, if any, has been noted by the API client
  }
}

export function MaintenancePage() {
  const [checking, setChecking] = useState(false)
  useEffect(() => {
    const timer = setInterval(() => void recheck(), MAINTENANCE_RECHECK_MS)
    return () => clearInterval(timer)
  }, [])
  return (
    <main className="container gate">
      <article className="auth-card maintenance-card" role="status" data-testid="maintenance-page">
        <h1>{MAINTENANCE_TITLE}</h1>
        <p>{MAINTENANCE_TEXT}</p>
        <button
          type="button"
          aria-busy={checking}
          onClick={async () => {
            setChecking(true)
            await recheck()
            setChecking(false)
          }}
        >
          Try again
        </button>
        <button type="button" className="outline secondary" onClick={() => void logout()}>
          Log out
        </button>
      </article>
    </main>
  )
}
