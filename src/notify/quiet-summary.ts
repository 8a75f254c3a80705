// The end of quiet hours (issue 16 item 7): email and push rows the dispatcher held (outbox
// status `held`, due at the window's end) become ONE summary email listing the matches and ONE
// push per device ('N new matches while you were away'), and each external channel's held rows ONE
// message of that channel (issue 27 §4). The same job folds the rows a channel's cap per minute held
// (last_error RATE_NOTE, due when the minute has room) into one message: 'N more matches in the last minute'. Held rows are durable (they are outbox
// rows), so a restart during the night loses nothing; they leave the queue as `sent` with a note
// that the summary carried them. While the emergency pause is on, they wait.
import { notificationGate } from '../access/rules'
import { userWithAccess } from '../access/state'
import type { OutboxRow } from '../db/schema'
import type { OwnerDb } from '../db/async-db'
import { asAsync } from '../db/async-sqlite'
import type { Deps } from '../deps'
import { enqueue, enqueueEmail } from '../outbox/queue'
import { dueHeld, fold } from '../outbox/store'
import { isPaused } from '../settings/service'
import type { ExternalAlert } from '../outbox/channels/types'
import { externalGate } from './endpoints'
import { summaryAlert } from './external'
import { quietSummaryEmail, type AlertMatch } from './templates'
import { unsubscribeUrl } from './unsubscribe'

export const SUMMARY_NOTE = 'delivered in the quiet-hours summary'
/** last_error of a row held by its channel's cap per minute, and of it once folded into the channel's one message */
export const RATE_NOTE = "held: the channel's cap per minute was reached"
export const RATE_SUMMARY_NOTE = "delivered folded into one message (the channel's cap per minute)"

export function awayText(n: number): string {
  return `${n} new ${n === 1 ? 'match' : 'matches'} while you were away`
}

/** The summary push: one per device, replacing any earlier summary (same tag). */
export function summaryPush(appUrl: string, alerts: AlertMatch[]) {
  const titles = alerts.slice(0, 3).map((a) => a.title)
  const more = alerts.length > 3 ? `\n…and ${alerts.length - 3} more` : ''
  return { title: awayText(alerts.length), body: titles.join('\n') + more, url: `${appUrl}/dashboard`, tag: 'quiet-summary' }
}

type Deliver = Pick<Deps, 'db' | 'now' | 'config' | 'bus'>

/** Held rows of external channels → one summary row per channel (and per reason); returns how many were queued. */
async function channelSummaries(deps: Deliver, txDeps: OwnerDb & Pick<Deps, 'now' | 'bus'>, userId: number, rows: OutboxRow[], end: number): Promise<number> {
  const groups = new Map<string, { channel: string; endpointId: number; reason: 'quiet' | 'rate'; alerts: ExternalAlert[] }>()
  for (const r of rows) {
    if (r.channel === 'email' || r.channel === 'push') continue
    const { endpointId, alert } = r.payload as { endpointId: number; alert: ExternalAlert }
    const reason = r.lastError === RATE_NOTE ? 'rate' : 'quiet'
    const key = `${endpointId}:${reason}`
    const g = groups.get(key) ?? { channel: r.channel, endpointId, reason, alerts: [] }
    g.alerts.push(alert)
    groups.set(key, g)
  }
  let n = 0
  for (const g of groups.values()) {
    const dedupeKey = `fold:${userId}:${end}:${g.reason}:${g.channel}:${g.endpointId}`
    const payload = { endpointId: g.endpointId, alert: summaryAlert(deps.config, g.reason, g.alerts, deps.now()) }
    if ((await enqueue(txDeps, { channel: g.channel, kind: 'digest', userId, dedupeKey, payload })) !== null) n++
  }
  return n
}

export async function runQuietSummaries(deps: Deliver): Promise<{ users: number; emails: number; pushes: number; channels: number }> {
  const out = { users: 0, emails: 0, pushes: 0, channels: 0 }
  if (await isPaused(deps)) return out
  const now = deps.now()
  const due = await dueHeld(deps, now)
  const byUser = new Map<number, OutboxRow[]>()
  for (const r of due) if (r.userId !== null) byUser.set(r.userId, [...(byUser.get(r.userId) ?? []), r])
  for (const [userId, rows] of byUser) {
    out.users++
    const account = await userWithAccess(deps, userId)
    const active = account !== null && account.user.bannedAt === null && account.user.emailConfirmedAt !== null
    const gates = account ? notificationGate(account.access, now) : null
    const end = Math.max(...rows.map((r) => r.nextAttemptAt.getTime()))
    const alertOf = (r: OutboxRow) => (r.payload as { alert: AlertMatch }).alert
    // one transaction per user: the summaries queued and the held rows folded
    await asAsync(deps.db).transaction(async (tx) => {
      const txDeps = { db: tx, now: deps.now, bus: deps.bus }
      const emails = rows.filter((r) => r.channel === 'email').map(alertOf)
      if (active && emails.length > 0 && gates!.email.allowed) {
        const msg = quietSummaryEmail(deps.config, account!.user.email, emails, unsubscribeUrl(deps, userId))
        if ((await enqueueEmail(txDeps, 'digest', msg, { userId, dedupeKey: `quiet:${userId}:${end}:email` })) !== null) out.emails++
      }
      const bySub = new Map<number, AlertMatch[]>()
      for (const r of rows.filter((r) => r.channel === 'push')) {
        const sub = (r.payload as { subscriptionId: number }).subscriptionId
        bySub.set(sub, [...(bySub.get(sub) ?? []), alertOf(r)])
      }
      if (active && gates!.webPush.allowed)
        for (const [subscriptionId, alerts] of bySub) {
          const message = summaryPush(deps.config.appUrl, alerts)
          if (
            (await enqueue(txDeps, {
              channel: 'push',
              kind: 'digest',
              userId,
              dedupeKey: `quiet:${userId}:${end}:push:${subscriptionId}`,
              payload: { subscriptionId, message },
            })) !== null
          )
            out.pushes++
        }
      if (active && externalGate(account!.access, now).allowed) out.channels += await channelSummaries(deps, txDeps, userId, rows, end)
      for (const rate of [false, true]) {
        const ids = rows.filter((r) => (r.lastError === RATE_NOTE) === rate).map((r) => r.id)
        const note = active ? (rate ? RATE_SUMMARY_NOTE : SUMMARY_NOTE) : 'user not active at the end of quiet hours'
        await fold(txDeps, ids, { delivered: active, at: now, note })
      }
    })
  }
  return out
}
