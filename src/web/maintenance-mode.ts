// Maintenance mode, the switch (spec §4; issue 14 item 2): while it is on, a signed-in
// non-admin's API calls answer 503 MAINTENANCE and the app shows them the maintenance page; admins
// are unaffected, and scanning and alerts go on (they do not pass through here). Every /api answer
// carries `x-maintenance-mode: on` meanwhile, so the app notices on its next call.
//
// Left open: sign-in and sign-out (/api/auth/*), GET /api/me, /api/config, the socket, the admin
// API, the CLI relay, Stripe webhooks, one-click unsubscribe and the API docs; non-API paths
// (/healthz, pages, assets) never pass the gate. Signed-out callers pass too:
// the routes answer them as usual (the public live feed keeps working).
import { readSessionToken, validateSession } from '../auth/session'
import { bearerToken, tokenSession } from '../auth/token-gate'
import type { Deps } from '../deps'
import { AppError } from '../lib/errors'
import { getSetting } from '../settings/service'

export const MAINTENANCE_HEADER = 'x-maintenance-mode'
export const MAINTENANCE_MESSAGE = 'Dibs is down for maintenance. Your alerts keep running; please try again shortly.'

const OPEN: RegExp[] = [
  /^\/api\/auth\//,
  /^\/api\/config$/,
  /^\/api\/ws$/,
  /^\/api\/admin\//,
  /^\/api\/internal\//,
  /^\/api\/billing\/webhook$/,
  /^\/api\/unsubscribe$/,
  /^\/api\/docs/,
]

export function maintenanceOpen(method: string, path: string): boolean {
  if (!path.startsWith('/api/')) return true
  if (path === '/api/me' && method === 'GET') return true
  return OPEN.some((re) => re.test(path))
}

/** The global hook (src/app.ts, before every handler): throws 503 for a signed-in non-admin. */
export async function maintenanceGate(deps: Deps, request: Request, headers: Record<string, string | number>): Promise<void> {
  const path = new URL(request.url).pathname
  if (!path.startsWith('/api/')) return
  if (!(await getSetting(deps, 'is_maintenance_mode_active'))) return
  headers[MAINTENANCE_HEADER] = 'on'
  if (maintenanceOpen(request.method, path)) return
  // A Bearer request is its token's user (never its cookie's).
  const session = bearerToken(request) !== null ? tokenSession(request) : await validateSession(deps, readSessionToken(request.headers.get('cookie')))
  if (session === null || session.access.role === 'admin') return
  throw new AppError(503, 'MAINTENANCE', MAINTENANCE_MESSAGE, { title: 'Maintenance' })
}
