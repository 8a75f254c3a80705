// Access ends on its own when a trial, a gifted period or a canceled subscription reaches
// access_expires_at; nothing is written then (access is computed per request). So that an open
// tab notices at that moment, this watcher keeps one timer for the next expiry and emits
// 'access.changed' for every user whose access ended since it last looked. It re-arms on every
// access change (src/services.ts wires 'access.changed' → rearm) and after each firing.
import { and, gt, isNotNull, lte, min } from 'drizzle-orm'
import { userAccess } from '../db/schema'
import { asAsync } from '../db/async-sqlite'
import type { Deps } from '../deps'
import { log } from '../lib/log'

/** setTimeout's limit is 2^31-1 ms (~24.8 days); later expiries are reached in hops. */
const MAX_DELAY_MS = 2 ** 31 - 1

export type ExpiryWatch = { rearm(): Promise<void>; stop(): void; readonly nextAt: number | null }

export function accessExpiryWatch(
  deps: Pick<Deps, 'db' | 'now' | 'bus'>,
  timers: { setTimeout: typeof setTimeout; clearTimeout: typeof clearTimeout } = globalThis,
): ExpiryWatch {
  let timer: ReturnType<typeof setTimeout> | null = null
  let nextAt: number | null = null
  let since = deps.now().getTime()
  let stopped = false
  let firing = false

  const fire = async () => {
    timer = null
    const now = deps.now().getTime()
    const ended = await asAsync(deps.db)
      .select({ userId: userAccess.userId })
      .from(userAccess)
      .where(and(isNotNull(userAccess.accessExpiresAt), gt(userAccess.accessExpiresAt, new Date(since)), lte(userAccess.accessExpiresAt, new Date(now))))
    since = now
    firing = true
    try {
      for (const { userId } of ended) deps.bus.emit('access.changed', { userId })
    } finally {
      firing = false
    }
    await rearm()
  }

  async function rearm() {
    if (stopped || firing) return
    const [row] = await asAsync(deps.db)
      .select({ at: min(userAccess.accessExpiresAt) })
      .from(userAccess)
      .where(gt(userAccess.accessExpiresAt, new Date(since)))
    if (stopped) return
    if (timer !== null) timers.clearTimeout(timer)
    timer = null
    const at = row?.at ?? null
    nextAt = at === null ? null : at.getTime()
    if (nextAt === null) return
    const delay = Math.max(0, Math.min(nextAt - deps.now().getTime(), MAX_DELAY_MS))
    timer = timers.setTimeout(() => void fire().catch((err: unknown) => log.error('access expiry watch failed', { error: String(err) })), delay)
    ;(timer as { unref?: () => void }).unref?.()
  }

  return {
    rearm,
    stop() {
      stopped = true
      if (timer !== null) timers.clearTimeout(timer)
      timer = null
    },
    get nextAt() {
      return nextAt
    },
  }
}
