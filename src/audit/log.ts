// The audit log: one row per state-changing admin action, from the admin pages, the CLI, billing
// webhooks and the system (push subscriptions gone) alike: who, what, target, when, result. The
// admin dashboard's Recent Activity, the Users detail and the Alerts page read it. Its own folder
// imports only the schema, so every folder may write to it without an import cycle.
import { and, desc, eq, gte, inArray } from 'drizzle-orm'
import type { OwnerDb } from '../db/async-db'
import { asAsync } from '../db/async-sqlite'
import { auditLog } from '../db/schema'
import type { Deps } from '../deps'

/** An admin, the CLI (`{cli: osUser}` reads 'cli:alice', or 'cli' when the OS user is unknown), Stripe or the system. */
export type AuditActor = { id: number; email: string } | { cli: string | null } | 'cli' | 'stripe' | 'system'

const actorName = (actor: AuditActor): string => (typeof actor === 'string' ? actor : 'cli' in actor ? (actor.cli ? `cli:${actor.cli}` : 'cli') : actor.email)

export type AuditEntry = {
  actor: AuditActor
  /** dotted verb, e.g. 'settings.emergency_pause', 'user.ban' */
  action: string
  target?: string | null
  details?: Record<string, unknown> | null
  result?: 'ok' | 'failed'
}

/** `db` may be a transaction, so a row can be written together with the change it records. */
export async function recordAudit(deps: OwnerDb & Pick<Deps, 'now'>, entry: AuditEntry): Promise<void> {
  const { actor } = entry
  await asAsync(deps.db)
    .insert(auditLog)
    .values({
      at: deps.now(),
      actorId: typeof actor === 'object' && 'id' in actor ? actor.id : null,
      actor: actorName(actor),
      action: entry.action,
      target: entry.target ?? null,
      details: entry.details ?? null,
      result: entry.result ?? 'ok',
    })
}

/**
 * Runs an admin action and records it: 'ok' with the details it returns, or 'failed' with the
 * error (which is re-thrown, so the route answers as usual).
 */
export async function audited<T>(
  deps: Pick<Deps, 'db' | 'now'>,
  entry: Omit<AuditEntry, 'result'>,
  action: () => T | Promise<T>,
  details?: (result: T) => Record<string, unknown>,
): Promise<T> {
  try {
    const result = await action()
    await recordAudit(deps, { ...entry, details: { ...entry.details, ...details?.(result) } })
    return result
  } catch (error) {
    await recordAudit(deps, { ...entry, details: { ...entry.details, error: (error as Error).message }, result: 'failed' })
    throw error
  }
}

export async function latestAudit(deps: OwnerDb, limit = 20) {
  return asAsync(deps.db).select().from(auditLog).orderBy(desc(auditLog.at), desc(auditLog.id)).limit(limit)
}

/** Rows of one action since `since`, newest first (Admin → Alerts: 'push.gone'). */
export async function auditRowsOf(deps: OwnerDb, action: string, since: Date) {
  return asAsync(deps.db)
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.action, action), gte(auditLog.at, since)))
    .orderBy(desc(auditLog.at), desc(auditLog.id))
}

/** The newest `limit` rows about one target, e.g. 'user:12' (Admin → Users detail). */
export async function auditRowsAbout(deps: OwnerDb, target: string, limit = 50) {
  return asAsync(deps.db).select().from(auditLog).where(eq(auditLog.target, target)).orderBy(desc(auditLog.at), desc(auditLog.id)).limit(limit)
}

/** The newest successful row of any of `actions` (Admin → Database: the last backup recorded), or undefined. */
export async function lastSuccessOf(deps: OwnerDb, actions: readonly string[]) {
  const [row] = await asAsync(deps.db)
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.result, 'ok'), inArray(auditLog.action, [...actions])))
    .orderBy(desc(auditLog.at), desc(auditLog.id))
    .limit(1)
  return row
}
