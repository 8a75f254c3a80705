// The signed-in user and AccessInfo as the subscriber pages need them. GET /api/me is the
// contract (the accounts capability owns sign-in; this module only reads and refreshes it).
import { computed, signal } from '@preact/signals-react'
import type { AccessInfo, AccessState } from '../src/access/rules'
import { api, ApiError, call, within } from './client'

export type Me = {
  // hasPassword and twoFactorEnabled are optional: an access_info_cache written before they existed lacks them.
  user: { id: number; email: string; name: string; hasPassword?: boolean; twoFactorEnabled?: boolean }
  access: AccessInfo
  /** this session's sign-in presented a two-factor code (optional for the same reason) */
  session?: { secondFactor: boolean }
}

/**
 * The server's answer (GET /api/me, a sign-in) as Me. Its model says `userRole` may be 'none': an account without an
 * access row yet (src/access/state.ts reads it so); the pure rules the web app shares with the server treat 'none' as
 * a role with no forums, exactly as the server does. The one place that narrows it; every other field is the server's.
 */
export const asMe = (answer: Omit<Me, 'access'> & { access: Omit<AccessInfo, 'userRole'> & { userRole: AccessInfo['userRole'] | 'none' } }): Me => answer as Me

/** undefined while loading, null when signed out. */
export const me = signal<Me | null | undefined>(undefined)
export const meError = signal<string | null>(null)

let inflight: Promise<Me | null> | null = null

export function loadMe(): Promise<Me | null> {
  inflight ??= call(api.me.get({ fetch: within(5000) }))
    .then(asMe)
    .then((m) => {
      me.value = m
      meError.value = null
      return m
    })
    .catch((err) => {
      if (err instanceof ApiError && err.status === 401) {
        me.value = null
        return null
      }
      meError.value = err instanceof Error ? err.message : String(err)
      if (me.value === undefined) me.value = null
      return me.value ?? null
    })
    .finally(() => {
      inflight = null
    })
  return inflight
}

/** AccessInfo back into the state the pure rules of src/access/rules.ts take. */
export function accessStateOf(info: AccessInfo): AccessState {
  return {
    role: info.userRole,
    subscriptionStatus: info.subscriptionStatus,
    accessExpiresAt: info.accessExpiresAt ? new Date(info.accessExpiresAt) : null,
    stripeCustomerId: info.stripeCustomerId,
  }
}

export const accessState = computed(() => (me.value ? accessStateOf(me.value.access) : null))
export const isAdmin = computed(() => me.value?.access.userRole === 'admin')

export async function logout() {
  try {
    await call(api.auth.logout.post({}))
  } catch {}
  me.value = null
  window.location.assign('/login')
}
