// Per-term delivery settings (issue 16 item 6) as the terms API shows and changes them: which
// channels a term alerts on, a mute, and "always notify" (through quiet hours). The rules that
// apply them to a match are src/notify/delivery.ts; this file validates and stores.
import type { Deps } from '../deps'
import { AppError, badRequest } from '../lib/errors'
import { MUTED_FOREVER, mutedUntil, readDelivery, type MuteChoice, type TermDelivery, type TermEmail, type TermSettings } from '../notify/delivery'
import { userEndpoints } from '../notify/endpoints'

/** What each term item carries: `muted` is 'forever', an ISO time, or null. */
export function deliveryItem(t: TermSettings) {
  const muted = t.mutedUntil === null ? null : t.mutedUntil.getTime() >= MUTED_FOREVER ? 'forever' : t.mutedUntil.toISOString()
  return { delivery: t.delivery, mutedUntil: muted, alwaysNotify: t.alwaysNotify }
}

export type DeliveryChange = {
  email?: TermEmail
  push?: boolean
  endpoints?: Record<string, boolean>
  /** a mute choice, or null to unmute */
  mute?: MuteChoice | null
  always_notify?: boolean
  /** the term's matches reach channels set to 'only important' */
  important?: boolean
}

type Row = { id: number; delivery: string | null; muted_until: number | null; always_notify: number }

/** Validates and stores a change; returns the whole updated row (the route answers with its term item). */
export async function updateTermDelivery<R extends Row>(
  deps: Pick<Deps, 'sqlite' | 'db' | 'now'>,
  userId: number,
  id: number,
  change: DeliveryChange,
): Promise<R> {
  const row = deps.sqlite.query<R, [number, number]>('SELECT * FROM search_terms WHERE id = ? AND user_id = ?').get(id, userId)
  if (row === null) throw new AppError(404, 'TERM_NOT_FOUND', 'Search term not found.', { title: 'Error updating term' })
  const current = readDelivery(row.delivery === null ? null : JSON.parse(row.delivery))
  const next: TermDelivery = { email: change.email ?? current.email, push: change.push ?? current.push, endpoints: { ...current.endpoints } }
  const important = change.important ?? current.important ?? false
  if (important) next.important = true
  if (change.endpoints) {
    const own = new Set((await userEndpoints(deps, userId)).map((e) => String(e.id)))
    for (const [k, v] of Object.entries(change.endpoints)) {
      if (!own.has(k)) throw badRequest(`Channel ${k} is not one of yours.`, 'CHANNEL_NOT_FOUND')
      next.endpoints[k] = v
    }
  }
  const muted = change.mute === undefined ? row.muted_until : change.mute === null ? null : mutedUntil(change.mute, deps.now()).getTime()
  const always = change.always_notify === undefined ? row.always_notify : change.always_notify ? 1 : 0
  return deps.sqlite
    .query<R, [string, number | null, number, number]>('UPDATE search_terms SET delivery = ?, muted_until = ?, always_notify = ? WHERE id = ? RETURNING *')
    .get(JSON.stringify(next), muted, always, id)!
}
