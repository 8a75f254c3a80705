// The browser's session and access state (spec §4 auth events and startup, §8 access errors, §9
// cache and timing constants). `me` (ui/account.ts) holds {user, access}; this module decides
// when it is loaded, cached, refreshed and cleared:
//   startup     GET /api/auth/session (5 s, one retry after 1 s, 8 s overall) → signed in or out
//   access      GET /api/me (3 s, 2 attempts 500 ms apart); the access_info_cache is used while
//               younger than 30 min, refreshed by the leader tab after 20 min (checked every 2 min),
//               refetched when the tab becomes visible after 15 min, and used stale up to 2 h when
//               the server cannot be reached ('Using cached data - connection issue')
//   sign-out    in one tab signs out every tab (BroadcastChannel, storage event as fallback)
// Sessions slide on the server (30 days, extended on use), so the browser never refreshes tokens.
import { effect, signal } from '@preact/signals-react'
import { navigate } from 'wouter/use-browser-location'
import type { AccessInfo } from '../src/access/rules'
import { api, ApiError, call, within } from './client'
import { asMe, me, meError, type Me } from './account'
import { toast } from './toast'

export const CACHE_KEY = 'access_info_cache'
export const LEADER_KEY = 'leader_tab'
export const ACTIVITY_KEY = 'last_activity'
export const AUTH_EVENT_KEY = 'auth_event'
export const REGISTRATION_EMAIL_KEY = 'registration_email'

export const CACHE_VALID_MS = 30 * 60_000
export const CACHE_REFRESH_AFTER_MS = 20 * 60_000
export const CACHE_CHECK_EVERY_MS = 2 * 60_000
export const CACHE_STALE_MAX_MS = 2 * 60 * 60_000
export const VISIBILITY_REFETCH_AFTER_MS = 15 * 60_000
export const VISIBILITY_DELAY_MS = 100
export const ACCESS_TIMEOUT_MS = 3000
export const ACCESS_ATTEMPTS = 2
export const ACCESS_RETRY_DELAY_MS = 500
export const SESSION_TIMEOUT_MS = 5000
export const INIT_RETRY_DELAY_MS = 1000
export const INIT_LIMIT_MS = 8000
export const LEADER_TIMEOUT_MS = 30_000

export const TEXT = {
  initTimeout: 'Authentication initialization timed out. Please refresh the page.',
  initFailed: 'Authentication initialization failed. Please refresh the page or contact support.',
  accessFailed: 'Failed to load subscription details. Please try again or contact support if the issue persists.',
  usingCache: 'Using cached data - connection issue',
  refreshFailed: 'Failed to refresh account information. Please try again or contact support.',
}

/** 'error': the session could not be checked (network down, timeout); authError says why. */
export type AuthStatus = 'loading' | 'authenticated' | 'unauthenticated' | 'error'
export const authStatus = signal<AuthStatus>('loading')
export const accessLoading = signal(false)
export const authError = signal<string | null>(null)
/** A non-fatal note, e.g. 'Using cached data - connection issue'. */
export const accessNotice = signal<string | null>(null)

// --- the access-info cache (pure over a Storage) --------------------------------------------

export type CacheEntry = { timestamp: number; data: Me }
export type CacheAge = 'fresh' | 'refresh' | 'stale' | 'expired'

export function readCache(storage: Pick<Storage, 'getItem'>, userId?: number): CacheEntry | null {
  try {
    const raw = storage.getItem(CACHE_KEY)
    if (!raw) return null
    const entry = JSON.parse(raw) as CacheEntry
    if (typeof entry?.timestamp !== 'number' || !entry.data?.user || !entry.data?.access) return null
    if (userId !== undefined && entry.data.user.id !== userId) return null
    return entry
  } catch {
    return null
  }
}

export function writeCache(storage: Pick<Storage, 'setItem'>, data: Me, now = Date.now()) {
  try {
    storage.setItem(CACHE_KEY, JSON.stringify({ timestamp: now, data } satisfies CacheEntry))
  } catch {}
}

/**
 * fresh < 20 min (use as is) · refresh < 30 min (use, refetch soon) · stale ≤ 2 h (only when
 * offline) · expired. A cached AccessInfo is never trusted past its own accessExpiresAt: the access
 * it describes has ended since it was cached.
 */
export function cacheAge(entry: CacheEntry | null, now = Date.now()): CacheAge {
  if (entry === null) return 'expired'
  const age = now - entry.timestamp
  if (age < 0) return 'expired'
  const ends = entry.data.access?.accessExpiresAt ? Date.parse(entry.data.access.accessExpiresAt) : Number.NaN
  if (entry.data.access?.hasAccess && ends <= now) return 'expired'
  if (age < CACHE_REFRESH_AFTER_MS) return 'fresh'
  if (age < CACHE_VALID_MS) return 'refresh'
  if (age <= CACHE_STALE_MAX_MS) return 'stale'
  return 'expired'
}

const storage = (): Storage | null => (typeof localStorage === 'undefined' ? null : localStorage)

export function clearAccessCache() {
  storage()?.removeItem(CACHE_KEY)
}

// The cache follows every fresh `me` (also ui/account.ts's loadMe after a realtime change),
// but not the value read from the cache itself, which must keep its original timestamp.
// `me` turning null while signed in (ui/account.ts's logout, or a 401 on refresh) means the
// shared cookie is gone: this tab and every other follow.
let applyingCache = false
effect(() => {
  const m = me.value
  if (m && !applyingCache) {
    const s = storage()
    if (s) writeCache(s, m)
  }
  if (m === null && authStatus.peek() === 'authenticated') {
    signedOutLocally()
    broadcast('signed-out')
  }
})

// The moment access ends (trial, gifted period) this tab refetches, even when the socket's
// access.changed does not arrive (offline, socket down): the overlay appears on time.
let expiryTimer: ReturnType<typeof setTimeout> | null = null
effect(() => {
  const access = me.value?.access
  if (expiryTimer !== null) clearTimeout(expiryTimer)
  expiryTimer = null
  const ends = access?.hasAccess && access.accessExpiresAt ? Date.parse(access.accessExpiresAt) : Number.NaN
  const wait = ends - Date.now()
  if (!(wait > 0) || wait > 2 ** 31 - 1) return
  expiryTimer = setTimeout(() => void loadAccess({ force: true, background: true }), wait + 250)
})

function applyCached(entry: CacheEntry) {
  applyingCache = true
  me.value = entry.data
  applyingCache = false
}

// --- loading ------------------------------------------------------------------------------

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const isSignedOutError = (err: unknown) => err instanceof ApiError && err.status === 401

type SessionUser = { id: number; email: string; name: string }

/** GET /api/auth/session, retried once after 1 s; null when signed out; throws when it cannot tell. */
async function checkSession(): Promise<SessionUser | null> {
  for (let attempt = 0; ; attempt++) {
    try {
      return (await call(api.auth.session.get({ fetch: within(SESSION_TIMEOUT_MS) }))).user
    } catch (err) {
      if (isSignedOutError(err)) return null
      if (attempt >= 1) throw err
      await sleep(INIT_RETRY_DELAY_MS)
    }
  }
}

/**
 * Loads AccessInfo for the signed-in user: from a fresh cache, else GET /api/me (2 attempts);
 * when both fail, a cache up to 2 h old with a notice, else the spec's error.
 */
export async function loadAccess(opts: { force?: boolean; userId?: number; background?: boolean } = {}): Promise<Me | null> {
  const s = storage()
  const userId = opts.userId ?? me.value?.user.id
  const cached = s ? readCache(s, userId) : null
  if (!opts.force && cached && (cacheAge(cached) === 'fresh' || cacheAge(cached) === 'refresh')) {
    applyCached(cached)
    return cached.data
  }
  if (!opts.background) accessLoading.value = true
  try {
    for (let attempt = 0; attempt < ACCESS_ATTEMPTS; attempt++) {
      try {
        const m: Me = asMe(await call(api.me.get({ fetch: within(ACCESS_TIMEOUT_MS) })))
        me.value = m
        meError.value = null
        authError.value = null
        accessNotice.value = null
        return m
      } catch (err) {
        if (isSignedOutError(err)) {
          signedOutLocally()
          return null
        }
        if (attempt < ACCESS_ATTEMPTS - 1) await sleep(ACCESS_RETRY_DELAY_MS)
      }
    }
    if (cached && cacheAge(cached) !== 'expired') {
      applyCached(cached)
      accessNotice.value = TEXT.usingCache
      return cached.data
    }
    if (opts.background && me.value) {
      toast({ title: 'Connection Issue', description: TEXT.refreshFailed, variant: 'destructive' })
      return me.value
    }
    authError.value = TEXT.accessFailed
    return null
  } finally {
    accessLoading.value = false
  }
}

let initRun: Promise<void> | null = null

/** Startup (spec §4): validate the session, then load access; 8 s overall. Runs once unless forced. */
export function initAuth(force = false): Promise<void> {
  startBackground()
  if (initRun && !force) return initRun
  initRun = (async () => {
    if (force || authStatus.value !== 'authenticated') authStatus.value = 'loading'
    authError.value = null
    let timer: ReturnType<typeof setTimeout> | undefined
    const limit = new Promise<'timeout'>((r) => (timer = setTimeout(() => r('timeout'), INIT_LIMIT_MS)))
    const work = (async () => {
      const user = await checkSession()
      if (user === null) return signedOutLocally()
      authStatus.value = 'authenticated'
      await loadAccess({ userId: user.id, force })
    })()
    try {
      if ((await Promise.race([work, limit])) === 'timeout') {
        authError.value = TEXT.initTimeout
        if (authStatus.value === 'loading') authStatus.value = 'error'
      }
    } catch {
      authError.value = TEXT.initFailed
      authStatus.value = 'error'
    } finally {
      clearTimeout(timer)
    }
  })()
  return initRun
}

/** After a successful sign-in on this tab (login form, Google callback, confirmation link). */
export function signedIn(m: Me) {
  me.value = m
  meError.value = null
  authError.value = null
  accessNotice.value = null
  authStatus.value = 'authenticated'
  initRun = Promise.resolve()
  broadcast('signed-in')
}

/** True while this tab signs itself out (ui/components/AppShell.tsx ignores the socket's revocation then). */
export let signingOut = false

/** Clears this tab's account state (no server call). */
export function signedOutLocally() {
  clearAccessCache()
  me.value = null
  authError.value = null
  accessNotice.value = null
  accessLoading.value = false
  authStatus.value = 'unauthenticated'
}

/**
 * Sign out (spec §8): the server call ignores 401/403/404; every tab follows. `fresh` is the
 * landing page's 'Sign Out & Sign In Fresh': it also clears all local storage.
 */
export async function signOut(opts: { scope?: 'local' | 'global'; fresh?: boolean; to?: string; quiet?: boolean } = {}): Promise<boolean> {
  // The server closes this tab's socket as the session ends: that is this sign-out, not a revocation.
  signingOut = true
  try {
    await call(api.auth.logout.post({ scope: opts.scope ?? 'local' }, { fetch: within(5000) }))
  } catch (err) {
    if (!(err instanceof ApiError && [401, 403, 404].includes(err.status))) {
      signingOut = false
      toast({ title: 'Error', description: 'Failed to log out. Please try again.', variant: 'destructive' })
      return false
    }
  }
  // Leave the protected page first, so it does not send the visitor to /login?next=… itself.
  navigate(opts.to ?? '/login', { replace: true })
  signedOutLocally()
  signingOut = false
  broadcast('signed-out')
  if (opts.fresh) {
    try {
      localStorage.clear()
      sessionStorage.clear()
    } catch {}
  }
  if (!opts.quiet) toast({ title: 'Logged out', description: 'You have been successfully logged out.' })
  return true
}

export function hasAccess(info: AccessInfo | undefined | null): boolean {
  return info?.hasAccess === true
}

// --- tabs: cross-tab events and the leader --------------------------------------------------

type AuthEvent = 'signed-in' | 'signed-out'
const tabId = Math.random().toString(36).slice(2)
let channel: BroadcastChannel | null = null

function broadcast(type: AuthEvent) {
  try {
    channel?.postMessage({ type, from: tabId })
  } catch {}
  try {
    // The storage event reaches tabs without BroadcastChannel; the value changes every time.
    localStorage.setItem(AUTH_EVENT_KEY, JSON.stringify({ type, from: tabId, at: Date.now() }))
  } catch {}
}

function onAuthEvent(type: AuthEvent, from: string) {
  if (from === tabId) return
  if (type === 'signed-out') {
    if (authStatus.value !== 'unauthenticated') signedOutLocally()
  } else void initAuth(true)
}

/** The leader tab does the periodic refresh; leadership lapses after 30 s without a heartbeat. */
export function isLeader(now = Date.now()): boolean {
  try {
    const raw = localStorage.getItem(LEADER_KEY)
    const cur = raw ? (JSON.parse(raw) as { id: string; at: number }) : null
    if (cur === null || cur.id === tabId || now - cur.at > LEADER_TIMEOUT_MS) {
      localStorage.setItem(LEADER_KEY, JSON.stringify({ id: tabId, at: now }))
      return true
    }
    return false
  } catch {
    return true
  }
}

let started = false
function startBackground() {
  if (started || typeof window === 'undefined') return
  started = true
  try {
    channel = typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel('dibs-auth')
    if (channel) channel.onmessage = (e) => onAuthEvent(e.data?.type, e.data?.from)
  } catch {}
  window.addEventListener('storage', (e) => {
    if (e.key === AUTH_EVENT_KEY && e.newValue) {
      try {
        const ev = JSON.parse(e.newValue) as { type: AuthEvent; from: string }
        onAuthEvent(ev.type, ev.from)
      } catch {}
    }
    // 'Sign Out & Sign In Fresh' in another tab clears everything: this tab follows.
    if (e.key === null && authStatus.value === 'authenticated') void initAuth(true)
  })
  const heartbeat = () => {
    isLeader()
    try {
      localStorage.setItem(ACTIVITY_KEY, String(Date.now()))
    } catch {}
  }
  heartbeat()
  setInterval(heartbeat, 10_000)
  // Proactive refresh: the leader refetches access older than 20 min, checked every 2 min.
  setInterval(() => {
    if (authStatus.value !== 'authenticated' || !isLeader()) return
    const s = storage()
    if (cacheAge(s ? readCache(s, me.value?.user.id) : null) !== 'fresh') void loadAccess({ force: true, background: true })
  }, CACHE_CHECK_EVERY_MS)
  // A tab coming back revalidates after 15 min away (and signs out when the session is gone).
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState !== 'visible') return
    setTimeout(() => {
      if (authStatus.value !== 'authenticated') return
      const s = storage()
      const entry = s ? readCache(s, me.value?.user.id) : null
      if (entry === null || Date.now() - entry.timestamp > VISIBILITY_REFETCH_AFTER_MS) void loadAccess({ force: true, background: true })
    }, VISIBILITY_DELAY_MS)
  })
}
