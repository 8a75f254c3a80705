// Per-term delivery settings (issue 16 item 6) as the terms API shows and changes them: which
// channels a term alerts on, a mute, and "always notify" (through quiet hours). The rules that
// apply them to a match are src/notify/delivery.ts; this file validates and stores.
import { sql } from 'drizzle-orm'
import type { OwnerDb } from '../db/async-db'
import { asAsync } from '../db/async-sqlite'
import { rawRow } from '../db/raw'
import { searchTerms } from '../db/schema'
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

/**
 * Validates and stores a change; returns the whole updated row (the route answers with its term item). The read, the
 * merge and the write are one transaction (docs/atomicity-audit.md C5): two quick toggles on one term both stay.
 */
export async function updateTermDelivery<R extends Row>(deps: OwnerDb & Pick<Deps, 'now'>, userId: number, id: number, change: DeliveryChange): Promise<R> {
  return asAsync(deps.db).transaction(async (tx) => {
    const row = await rawRow<R>(tx, sql`SELECT * FROM ${searchTerms} WHERE ${searchTerms.id} = ${id} AND ${searchTerms.userId} = ${userId}`)
    if (row === undefined) throw new AppError(404, 'TERM_NOT_FOUND', 'Search term not found.', { title: 'Error updating term' })
    const stored: unknown = row.delivery
    const current = readDelivery(stored === null ? null : typeof stored === 'string' ? JSON.parse(stored) : stored)
    const next: TermDelivery = { email: change.email ?? current.email, push: change.push ?? current.push, endpoints: { ...current.endpoints } }
    const important = change.important ?? current.important ?? false
    if (important) next.important = true
    if (change.endpoints) {
      const own = new Set((await userEndpoints({ db: tx }, userId)).map((e) => String(e.id)))
      for (const [k, v] of Object.entries(change.endpoints)) {
        if (!own.has(k)) throw badRequest(`Channel ${k} is not one of yours.`, 'CHANNEL_NOT_FOUND')
        next.endpoints[k] = v
      }
    }
    const muted = change.mute === undefined ? row.muted_until : change.mute === null ? null : mutedUntil(change.mute, deps.now()).getTime()
    const always = change.always_notify === undefined ? Boolean(row.always_notify) : change.always_notify
    return (await rawRow<R>(
      tx,
      sql`UPDATE ${searchTerms} SET delivery = ${JSON.stringify(next)}, muted_until = ${muted}, always_notify = ${always} WHERE ${searchTerms.id} = ${id} RETURNING *`,
    ))!
  })
}
