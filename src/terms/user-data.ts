// This folder's rows of one user for the data export (src/me/export.ts, GET /api/me/export).
import { asc, eq } from 'drizzle-orm'
import { searchTerms } from '../db/schema'
import type { Deps } from '../deps'

/** The user's saved terms, by id. */
export function termsOfUser(deps: Pick<Deps, 'db'>, userId: number) {
  return deps.db.select().from(searchTerms).where(eq(searchTerms.userId, userId)).orderBy(asc(searchTerms.id)).all()
}
