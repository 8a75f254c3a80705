// This folder's rows of one user for the data export (src/me/export.ts, GET /api/me/export).
import { asc, eq, inArray } from 'drizzle-orm'
import { matchDefaults, matches, matchTerms } from '../db/schema'
import type { OwnerDb } from '../db/async-db'
import { asAsync } from '../db/async-sqlite'
import { chunksOf } from '../lib/id-lists'

/** The user's matches (by id), each match's term links, and the user's match defaults row (undefined: the defaults). */
export async function matchesOfUser(deps: OwnerDb, userId: number) {
  const db = asAsync(deps.db)
  const rows = await db.select().from(matches).where(eq(matches.userId, userId)).orderBy(asc(matches.id))
  const links: (typeof matchTerms.$inferSelect)[] = []
  for (const chunk of chunksOf(rows.map((m) => m.id))) links.push(...(await db.select().from(matchTerms).where(inArray(matchTerms.matchId, chunk))))
  const defaults = (await db.select().from(matchDefaults).where(eq(matchDefaults.userId, userId)).limit(1))[0]
  return { rows, links, defaults }
}
