// This folder's rows of one user for the data export (src/me/export.ts, GET /api/me/export).
import { asc, eq } from 'drizzle-orm'
import type { OwnerDb } from '../db/async-db'
import { asAsync } from '../db/async-sqlite'
import { searchTerms } from '../db/schema'

/** The user's saved terms, by id. */
export async function termsOfUser(deps: OwnerDb, userId: number) {
  return asAsync(deps.db).select().from(searchTerms).where(eq(searchTerms.userId, userId)).orderBy(asc(searchTerms.id))
}
