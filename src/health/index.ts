// GET /healthz: liveness, a database round trip, storage (full or not) and the age of the last
// successful scan. Any trouble answers 503 so a container health check notices. It stays cheap.
// GET /readyz: readiness for orchestrators (a rolled-back write, migrations, term index, scan age).
import { troubleText } from '../forums/source-health'
import { activityLine, forumActivity } from '../scanner/forum-activity'
import { writeReadyzProbe } from '../scanner/scan-history'
import type { ScanSource } from '../scanner/source'
import { statfsSync } from 'node:fs'
import { Elysia } from 'elysia'
import { sql } from 'drizzle-orm'
import { asAsync } from '../db/async-sqlite'
import { engineOf } from '../db/async-db'
import { appliedMigrationTagsOf, pragma } from '../db/inspect'
import { rawRow } from '../db/raw'
import type { Deps } from '../deps'
import { JOB, lastSuccess } from '../jobs/log'
import { storageFullRecently } from '../lib/storage'
import { migrations as embeddedMigrations } from '../db/migrations'
import { migrations as pgMigrations } from '../db/migrations-pg'
import { isPaused } from '../settings/service'
import { HealthzResponse, ReadyzResponse } from './models'

/** Below this much free space on DATA_DIR's file system, the next write may fail. */
const MIN_FREE_BYTES = 1024 * 1024

/**
 * 'full' when a write failed for lack of space within the last minute (src/app.ts, the jobs), when
 * the database has reached its page limit with no free page left, or when DATA_DIR's file system
 * has under 1 MiB left for the service user.
 */
export function storageState(deps: Pick<Deps, 'db' | 'sqlite' | 'config'>): 'ok' | 'full' {
  if (storageFullRecently(deps.db)) return 'full'
  // SQLite's own page limit (PostgreSQL has none to read here: its failed writes and the file system speak for it)
  const sqlite = deps.sqlite
  if (sqlite !== null && engineOf(deps.db) === 'sqlite')
    try {
      const n = (name: string) => pragma(sqlite, name)
      if (n('page_count') >= n('max_page_count') && n('freelist_count') === 0) return 'full'
    } catch {}
  try {
    const fs = statfsSync(deps.config.dataDir)
    if (fs.bavail * fs.bsize < MIN_FREE_BYTES) return 'full'
  } catch {}
  return 'ok'
}

export async function health(deps: Pick<Deps, 'db' | 'sqlite' | 'now' | 'config'> & { source?: Partial<Pick<ScanSource, 'healthReport'>> }) {
  let dbOk = false
  try {
    dbOk = (await rawRow(asAsync(deps.db), sql`SELECT 1 AS ok`)) !== undefined
  } catch {
    dbOk = false
  }
  const storage = storageState(deps)
  const last = dbOk ? await lastSuccess(deps, JOB.scan) : null
  return {
    status: dbOk && storage === 'ok' ? 'ok' : 'error',
    db: dbOk ? 'ok' : 'error',
    storage,
    lastScanAt: last?.toISOString() ?? null,
    lastScanAgeSeconds: last ? Math.max(0, Math.round((deps.now().getTime() - last.getTime()) / 1000)) : null,
    /** the forum source's trouble in words (liveness stays ok: /readyz fails after 10 minutes without a scan) */
    source: sourceTrouble(deps),
    uptimeSeconds: Math.round(process.uptime()),
  }
}

export const healthRoutes = (deps: Deps) =>
  new Elysia({ name: 'health' }).get(
    '/healthz',
    async ({ set }) => {
      const body = await health(deps)
      if (body.status !== 'ok') set.status = 503
      return body
    },
    { response: { 200: HealthzResponse }, detail: { security: [], summary: 'Liveness, database, storage and last successful scan age', tags: ['system'] } },
  )

/** /readyz: the last successful scan may be at most this old (unless the emergency pause is on). */
export const READY_SCAN_MAX_AGE_MS = 10 * 60_000

/** `warn`: worth a look, but the server is ready (a quiet forum: the others are still read). */
type Check = { ok: boolean; detail: string; warn?: boolean }
type ReadyDeps = Pick<Deps, 'db' | 'sqlite' | 'now' | 'config'> & { matcher?: { size: number } | null; source?: Partial<Pick<ScanSource, 'healthReport'>> }

/** The forum source's health in one line ("blocked: this address is blocked by Reddit …"), or null when it is ok or unknown. */
function sourceTrouble(deps: { source?: Partial<Pick<ScanSource, 'healthReport'>> }): string | null {
  return troubleText(deps.source?.healthReport?.())
}

/** Per forum the last post seen; a forum gone quiet or known missing is flagged (src/scanner/forum-activity.ts) without failing readiness. */
async function forumsCheck(deps: ReadyDeps): Promise<Check> {
  try {
    const forums = await forumActivity(deps, deps.source?.healthReport?.()?.missingForums ?? [])
    const detail = activityLine(forums, deps.now().getTime())
    return forums.some((f) => f.flag) ? { ok: true, warn: true, detail } : { ok: true, detail }
  } catch {
    return { ok: true, warn: true, detail: 'the posts could not be read' }
  }
}

/** A write the database must accept, rolled back: proves the file, the lock and the disk, changes nothing. */
async function databaseWritable(deps: Pick<Deps, 'db' | 'sqlite'>): Promise<Check> {
  try {
    await asAsync(deps.db).transaction(async (tx) => {
      await writeReadyzProbe({ db: tx })
      throw ROLLBACK
    })
  } catch (err) {
    if (err !== ROLLBACK) return { ok: false, detail: 'the database refused a write' }
  }
  return { ok: true, detail: 'a write was accepted (and rolled back)' }
}
const ROLLBACK = Symbol('rollback')

/** The engine's embedded migrations against its `__migrations` table (both engines keep one row per applied migration). */
async function migrationsApplied(deps: Pick<Deps, 'db'>): Promise<Check> {
  const tags = new Set((engineOf(deps.db) === 'postgres' ? pgMigrations : embeddedMigrations).map((m) => m.tag))
  let applied = 0
  try {
    for (const tag of await appliedMigrationTagsOf(deps.db)) if (tags.has(tag)) applied++
  } catch {}
  return { ok: applied === tags.size, detail: `${applied} of ${tags.size} migrations applied` }
}

/**
 * Readiness for orchestrators: every check, and `ready` only when all pass. The scan check counts
 * from the later of the last successful scan and `startedAt` (when this server began), so a fresh
 * start has 10 minutes for its first scan.
 */
export async function readiness(deps: ReadyDeps, startedAt: number) {
  const now = deps.now().getTime()
  const terms = deps.matcher?.size
  const checks: Record<string, Check> = {
    database: await databaseWritable(deps),
    migrations: await migrationsApplied(deps),
    termIndex: typeof terms === 'number' ? { ok: true, detail: `${terms} terms loaded` } : { ok: false, detail: 'the term index is not loaded' },
  }
  let paused = false
  let last: Date | null = null
  try {
    paused = await isPaused(deps)
    last = await lastSuccess(deps, JOB.scan)
  } catch {}
  const age = now - Math.max(last?.getTime() ?? 0, startedAt)
  const minutes = (ms: number) => `${Math.round(ms / 60_000)} min`
  checks.scan = paused
    ? { ok: true, detail: 'the emergency pause is on: scans are stopped on purpose' }
    : age <= READY_SCAN_MAX_AGE_MS
      ? { ok: true, detail: last ? `last successful scan ${minutes(now - last.getTime())} ago` : 'no scan yet; started less than 10 min ago' }
      : {
          ok: false,
          detail: [
            last ? `last successful scan ${minutes(now - last.getTime())} ago (limit 10 min)` : 'no successful scan since the start over 10 min ago',
            sourceTrouble(deps),
          ]
            .filter(Boolean)
            .join('; the forum source is '),
        }
  checks.forums = await forumsCheck(deps)
  const failing = Object.keys(checks).filter((k) => !checks[k]!.ok)
  return { ready: failing.length === 0, failing, checks }
}

export const readyRoutes = (deps: ReadyDeps) => {
  const startedAt = deps.now().getTime()
  return new Elysia({ name: 'ready' }).get(
    '/readyz',
    async ({ set }) => {
      const body = await readiness(deps, startedAt)
      if (!body.ready) set.status = 503
      return body
    },
    {
      response: { 200: ReadyzResponse },
      detail: {
        security: [],
        summary:
          'Readiness: database writable, migrations applied, term index loaded, a successful scan within 10 minutes (unless paused); 503 lists the failing checks',
        tags: ['system'],
      },
    },
  )
}
