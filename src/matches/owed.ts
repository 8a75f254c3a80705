// Alerts owed (the alerts_owed table). Storing a live match and queueing its alerts are two
// transactions: the runner commits the match, emits match.new (the socket goes out at once), and
// the dispatcher queues email, push and channel rows on the next macrotask, 4 s later for 10,000
// matches. A process killed in between would leave matches that show as New and never alert. So the
// runner writes one row here per match that alerts, in the match's own transaction; the dispatcher
// removes it in the transaction that queues the alerts; and the server re-dispatches what is left
// at start (dispatchOwed, src/notify/dispatcher.ts), before the jobs. Queueing is idempotent by the
// dedupe keys, so a match dispatched twice still has one row per alert.
import { asc, count, eq, inArray, lte } from 'drizzle-orm'
import type { OwnerDb } from '../db/async-db'
import { asAsync } from '../db/async-sqlite'
import { alertsOwed, matches } from '../db/schema'
import type { MatchItem } from '../contract/events'
import { attachListing } from './listing'
import { matchItem, matchRowOf, withPostFacts } from './service'
import { chunksOf } from '../lib/id-lists'
import { insertMany } from '../db/bulk'

/** In the runner's transaction: these matches' alerts are owed (one statement per 500). */
export async function oweAlerts(deps: OwnerDb, matchIds: number[], at: number): Promise<void> {
  await insertMany(
    deps.db,
    alertsOwed,
    matchIds.map((matchId) => ({ matchId, createdAt: new Date(at) })),
    { onConflictDoNothing: [alertsOwed.matchId] },
  )
}

/** In the dispatcher's transaction: these matches' alerts are queued (or decided against). */
export async function settleOwed(deps: OwnerDb, matchIds: number[]): Promise<void> {
  const db = asAsync(deps.db)
  for (const chunk of chunksOf(matchIds)) await db.delete(alertsOwed).where(inArray(alertsOwed.matchId, chunk))
}

/** The matches whose alerts are still owed, oldest first, as the runner announced them. */
export async function owedAlerts(
  deps: OwnerDb,
  opts: { /** only matches owed since at or before this */ before?: Date } = {},
): Promise<{ userId: number; match: MatchItem }[]> {
  const db = asAsync(deps.db)
  const owedRows = await db
    .select({ m: matches })
    .from(alertsOwed)
    .innerJoin(matches, eq(matches.id, alertsOwed.matchId))
    .where(opts.before ? lte(alertsOwed.createdAt, opts.before) : undefined)
    .orderBy(asc(alertsOwed.matchId))
  return announced(
    deps,
    owedRows.map((r) => r.m),
  )
}

/** Stored matches as the runner announced them (post facts, seller, listing). */
async function announced(deps: OwnerDb, stored: (typeof matches.$inferSelect)[]): Promise<{ userId: number; match: MatchItem }[]> {
  const rows = await withPostFacts(deps, stored.map(matchRowOf))
  const out = rows.map((r) => ({ userId: r.user_id, match: matchItem(r) }))
  await attachListing(
    deps,
    out.map((o) => o.match),
  )
  return out
}

/** One match as the runner announced it, or null when it is gone (another node's `match.new` read back: src/cluster/fanout-load.ts). */
export async function announcedMatch(deps: OwnerDb, matchId: number): Promise<{ userId: number; match: MatchItem } | null> {
  const stored = await asAsync(deps.db).select().from(matches).where(eq(matches.id, matchId)).limit(1)
  return (await announced(deps, stored))[0] ?? null
}

/** How many alerts are owed now (the dispatcher's tests, `dibs doctor`-style checks). */
export async function owedCount(deps: OwnerDb): Promise<number> {
  const db = asAsync(deps.db)
  return (await db.select({ n: count() }).from(alertsOwed))[0]?.n ?? 0
}
