// /api/admin/database — the Database page: table sizes (./view.ts), integrity check, optimize
// (src/db/inspect.ts), backup download (./backup-download.ts), archive (src/forums).
// Every action is audited. All of them run on the server's own connection, synchronously: while
// one runs, this process serves nothing else, and a CLI process writing at the same time makes
// VACUUM wait up to busy_timeout (5 s), then answer 409.
import type { Database } from 'bun:sqlite'
import { Elysia, t } from 'elysia'
import { badRequest } from '../../lib/errors'
import { authPlugin } from '../../auth/plugin'
import { audited, recordAudit } from '../../audit/log'
import { integrityCheck, optimizeDatabase } from '../../db/inspect'
import { archivePosts } from '../../forums/upkeep'
import { log } from '../../lib/log'
import type { AdminDeps } from '../shared/deps'
import { backupDownload } from './backup-download'
import { databaseStats } from './view'
import { AdminDatabaseIntegrityResponse, AdminDatabaseOptimizeResponse, AdminDatabaseResponse } from '../models'
import { CountResponse } from '../../matches/models'
import { errors } from '../../lib/models'
import { otherResponses } from '../../lib/models'

const tags = ['admin']

/** The SQLite file's own tools (integrity check, optimize) need SQLite; on PostgreSQL they are the database server's (docs/operating.md). */
function sqliteOnly<D extends { sqlite: Database | null }>(deps: D): D & { sqlite: Database } {
  if (deps.sqlite === null)
    throw badRequest(
      'This runs on the SQLite file. The database is PostgreSQL: check and maintain it with its own tools (pg_amcheck, VACUUM ANALYZE).',
      'NOT_SQLITE',
    )
  return deps as D & { sqlite: Database }
}

export const databaseRoutes = (deps: AdminDeps) =>
  new Elysia({ name: 'admin-database' })
    .use(authPlugin(deps))
    .get('/api/admin/database', async () => databaseStats(deps), {
      response: { 200: AdminDatabaseResponse, ...errors(401, 403) },
      admin: true,
      detail: {
        summary:
          "Rows and bytes per table (sizes: 'dbstat', or 'estimate' when this SQLite lacks dbstat), database and WAL file sizes, free pages, and the last backup (DATA_DIR/backups and audited downloads)",
        tags,
      },
    })
    .post(
      '/api/admin/database/integrity',
      async ({ body, user }) => {
        const r = integrityCheck(sqliteOnly(deps), body?.mode ?? 'quick')
        await recordAudit(deps, {
          actor: { id: user.id, email: user.email },
          action: 'db.integrity_check',
          details: { mode: r.mode, ok: r.ok, ms: r.ms, messages: r.messages.slice(0, 5) },
          result: r.ok ? 'ok' : 'failed',
        })
        return r
      },
      {
        response: { 200: AdminDatabaseIntegrityResponse, ...errors(400, 401, 403) },
        admin: true,
        body: t.Optional(t.Object({ mode: t.Optional(t.UnionEnum(['quick', 'full'])) })),
        detail: { summary: "Integrity check {mode: 'quick' (default, PRAGMA quick_check) | 'full' (integrity_check)} → {ok, messages, ms}", tags },
      },
    )
    .post(
      '/api/admin/database/optimize',
      async ({ user }) => {
        const actor = { id: user.id, email: user.email }
        try {
          const r = optimizeDatabase(sqliteOnly(deps))
          await recordAudit(deps, { actor, action: 'db.optimize', details: { beforeBytes: r.before.total, afterBytes: r.after.total, ms: r.ms } })
          return r
        } catch (err) {
          // When another process holds the database, this row may not be writable either.
          try {
            await recordAudit(deps, { actor, action: 'db.optimize', details: { error: (err as Error).message }, result: 'failed' })
          } catch (auditErr) {
            log.warn('could not record the failed optimize in the audit log', { error: String(auditErr) })
          }
          throw err
        }
      },
      {
        response: { 200: AdminDatabaseOptimizeResponse, ...errors(400, 401, 403) },
        admin: true,
        detail: {
          summary: 'PRAGMA optimize, VACUUM, wal_checkpoint(TRUNCATE) → {before, after, savedBytes, ms}; 409 DB_BUSY when another process holds the database',
          tags,
        },
      },
    )
    .get('/api/admin/database/backup', ({ user }) => backupDownload(deps, { id: user.id, email: user.email }), {
      admin: true,
      detail: {
        summary: 'Download a consistent, verified copy of the database (VACUUM INTO), as an attachment; the temp copy is removed',
        tags,
        responses: otherResponses(
          { 200: { description: 'the SQLite file (content-disposition: attachment)', type: 'application/octet-stream', headers: ['content-disposition'] } },
          401,
          403,
        ),
      },
    })
    .post(
      '/api/admin/database/archive',
      ({ body, user }) => {
        const hours = body?.olderThanHours ?? 24 * 7
        return audited(
          deps,
          { actor: { id: user.id, email: user.email }, action: 'posts.archive', details: { olderThanHours: hours } },
          () => archivePosts(deps, { olderThanMs: hours * 3600_000 }),
          (r) => ({ count: r.count }),
        )
      },
      {
        response: { 200: CountResponse, ...errors(400, 401, 403) },
        admin: true,
        body: t.Optional(t.Object({ olderThanHours: t.Optional(t.Integer({ minimum: 1, maximum: 24 * 366 })) })),
        detail: {
          summary: 'Archive (delete) posts older than olderThanHours (default 168 = 7 days, which keeps the live feed); matches keep their copy → {count}',
          tags,
        },
      },
    )
