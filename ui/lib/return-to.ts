// Deep links survive sign-in (issue 12 item 5): a signed-out visitor sent to /login carries the
// page they asked for as ?next=, and it is also kept in sessionStorage for Google sign-in (the
// provider round trip drops the query). Only same-origin paths are followed.
export const RETURN_KEY = 'return_to'
const NOT_BACK_TO = ['/login', '/signup', '/auth/callback', '/check-email', '/email-confirmation', '/reset-password', '/forgot-password']

/** A safe in-app path, or null: starts with one '/', no scheme, no backslash, not an auth page. */
export function safePath(value: string | null | undefined): string | null {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.includes('\\')) return null
  let url: URL
  try {
    url = new URL(value, 'http://x.invalid')
  } catch {
    return null
  }
  if (url.origin !== 'http://x.invalid' || NOT_BACK_TO.includes(url.pathname)) return null
  return url.pathname + url.search + url.hash
}

/** /login?next=<the current page> (and remembered for Google). */
export function loginPathFor(loc: { pathname: string; search: string }): string {
  const here = safePath(loc.pathname + loc.search)
  if (here === null || here === '/dashboard' || here === '/dashboard/') return '/login'
  try {
    sessionStorage.setItem(RETURN_KEY, here)
  } catch {}
  return `/login?next=${encodeURIComponent(here)}`
}

/** Where to go after signing in: ?next=, else the remembered page, else the dashboard (the memory is used once). */
export function returnPath(search: string): string {
  let stored: string | null = null
  try {
    stored = sessionStorage.getItem(RETURN_KEY)
    sessionStorage.removeItem(RETURN_KEY)
  } catch {}
  return safePath(new URLSearchParams(search).get('next')) ?? safePath(stored) ?? '/dashboard'
}
