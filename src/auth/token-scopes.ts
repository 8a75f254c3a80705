// What a personal access token may do, in one table (issue 28). A token works on the user's own
// /api routes: `read` on their GETs, `write` on the changes listed in WRITE below (terms, and
// marking matches read or archived). `write` also reads. Never with a token: admin routes, the
// routes that manage credentials (tokens, sign-in, sessions, password, two-factor), the download of
// the whole account, and every other change (account, billing, channels, preferences) — a leaked
// script token cannot take the account.

export const TOKEN_SCOPES = ['read', 'write'] as const
export type TokenScope = (typeof TOKEN_SCOPES)[number]

/** Routes a token can never use, whatever its scopes. */
const NEVER = [
  /^\/api\/admin(\/|$)/,
  /^\/api\/tokens(\/|$)/,
  /^\/api\/auth\//,
  /^\/api\/internal\//,
  /^\/api\/me\/export$/, // the whole account (sessions' addresses included): Settings → Account, signed in
]

/** The changes a `write` token may make. */
const WRITE = [
  /^\/api\/terms$/, // add (POST), clear a category (DELETE)
  /^\/api\/terms\/\d+$/, // edit, pause (PATCH), remove (DELETE)
  /^\/api\/terms\/\d+\/delivery$/,
  /^\/api\/terms\/import$/, // import (preview with ?dryRun=1, or apply)
  /^\/api\/matches\/read-all$/,
  /^\/api\/matches\/\d+\/(read|unread|archive|restore)$/,
]

const READING = new Set(['GET', 'HEAD'])

/** The scope a route needs from a token, or null when no token may use it. */
export function scopeNeeded(method: string, path: string): TokenScope | null {
  if (NEVER.some((re) => re.test(path))) return null
  if (READING.has(method)) return 'read'
  return WRITE.some((re) => re.test(path)) ? 'write' : null
}

/** Do these scopes cover what the route needs? (`write` includes `read`.) */
export function tokenAllows(scopes: readonly string[], needed: TokenScope): boolean {
  return scopes.includes(needed) || (needed === 'read' && scopes.includes('write'))
}

/** What a refused token is told. */
export function scopeRefusal(needed: TokenScope | null, path: string): string {
  if (needed === null)
    return path.startsWith('/api/admin')
      ? 'Admin routes do not accept personal access tokens. Sign in to the web app as an admin instead.'
      : 'Personal access tokens cannot do this. Sign in to the web app to do it.'
  return `This token does not have the '${needed}' scope this request needs. Create a token with the '${needed}' scope in Settings → Account.`
}
