// This folder's rows of one user for the data export (src/me/export.ts, GET /api/me/export).
import { asc, eq, inArray } from 'drizzle-orm'
import { matchDefaults, matches, matchTerms } from '../db/schema'
import type { Deps } from '../deps'

/** The user's matches (by id), each match's term links, and the user's match defaults row (undefined: the defaults). */
export function matchesOfUser(deps: Pick<Deps, 'db'>, userId: number) {
  const rows = deps.db.select().from(matches).where(eq(matches.userId, userId)).orderBy(asc(matches.id)).all()
  const links = rows.length
    ? deps.db
        .select()
        .from(matchTerms)
        .where(
          inArray(
            matchTerms.matchId,
            rows.map((m) => m.id),
          ),
        )
        .all()
    : []
  return { rows, links, defaults: deps.db.select().from(matchDefaults).where(eq(matchDefaults.userId, userId)).get() }
}
