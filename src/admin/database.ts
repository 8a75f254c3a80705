// /api/admin — Database: table sizes, integrity check, optimize, backup download, archive.
// Every action is audited. All of them run on the server's own connection, synchronously: while
// one runs, this process serves nothing else, and a CLI process writing at the same time makes
// VACUUM wait up to busy_timeout (5 s), then answer 409.
import { Elysia, t } from 'elysia'
import { mkdtempSync, rmSync } from 'node:fs'
import { open } from 'node:fs/promises'
import { join } from 'node:path'
import { authPlugin } from '../auth/plugin'
import { backupDatabase } from '../db/backup'
import type { Deps } from '../deps'
import { archivePosts } from '../forums/maintenance'
import { conflict } from '../lib/errors'
import { log } from '../lib/log'
import { audited, recordAudit, type AuditActor } from '../audit/log'
import { databaseStats, fileSizes } from './db-stats'
import type { AdminDeps } from './deps'

type DbDeps = Pick<Deps, 'config' | 'sqlite' | 'db' | 'now'>

export type IntegrityResult = { mode: 'quick' | 'full'; ok: boolean; messages: string[]; ms: number }

/** PRAGMA quick_check (O(n), skips index contents) or integrity_check; at most 100 problems are listed. */
export function integrityCheck(deps: Pick<Deps, 'sqlite'>, mode: 'quick' | 'full'): IntegrityResult {
  const t0 = performance.now()
  let messages: string[]
  try {
    const rows = deps.sqlite.query(`PRAGMA ${mode === 'quick' ? 'quick_check' : 'integrity_check'}(100)`).all() as Record<string, string>[]
    messages = rows.flatMap((r) => String(Object.values(r)[0] ?? '').split('\n'))
  } catch (err) {
    // A badly damaged file can make the check itself fail ('database disk image is malformed').
    messages = [(err as Error).message]
  }
  return { mode, ok: messages.length === 1 && messages[0] === 'ok', messages, ms: Math.round(performance.now() - t0) }
}

const isBusy = (err: unknown) => /SQLITE_BUSY|SQLITE_LOCKED|database is locked|statements in progress/i.test(String((err as Error)?.message ?? err))

/**
 * PRAGMA optimize (refreshes the planner's statistics where they are stale), VACUUM (rewrites the
 * file without its free pages; in WAL mode through the WAL), then wal_checkpoint(TRUNCATE) (copies
 * the WAL into the file and empties it). Sizes before and after.
 */
export function optimizeDatabase(deps: Pick<Deps, 'config' | 'sqlite'>) {
  const before = fileSizes(deps.config.dbPath)
  const t0 = performance.now()
  try {
    deps.sqlite.run('PRAGMA optimize')
    deps.sqlite.run('VACUUM')
    deps.sqlite.run('PRAGMA wal_checkpoint(TRUNCATE)')
  } catch (err) {
    if (isBusy(err)) throw conflict('The database is busy (another process is using it). Try again in a moment.', 'DB_BUSY')
    throw err
  }
  const after = fileSizes(deps.config.dbPath)
  return { before, after, savedBytes: before.total - after.total, ms: Math.round(performance.now() - t0) }
}

/**
 * A consistent copy made with VACUUM INTO (src/db/backup.ts: a read snapshot, verified with
 * integrity_check) in a private temp folder inside DATA_DIR, opened and then unlinked at once: the
 * open handle streams it, and nothing is left on disk whether the download ends or is cancelled.
 */
export async function backupDownload(deps: DbDeps, actor: AuditActor): Promise<Response> {
  const dir = mkdtempSync(join(deps.config.dataDir, '.download-'))
  const at = deps.now()
  const name = `dibs-backup-${at.toISOString().replace(/[:.]/g, '-')}.db`
  let result: ReturnType<typeof backupDatabase>
  let handle: Awaited<ReturnType<typeof open>>
  try {
    result = await audited(
      deps,
      { actor, action: 'db.backup_download', target: name },
      () => backupDatabase(deps.config.dbPath, join(dir, name)),
      (r) => ({ bytes: r.bytes, tables: r.tables, integrity: r.integrity }),
    )
    handle = await open(result.file, 'r')
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
  const chunk = new Uint8Array(256 * 1024)
  const close = () => void handle.close().catch(() => {})
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, null)
      if (bytesRead === 0) {
        close()
        controller.close()
      } else controller.enqueue(chunk.slice(0, bytesRead))
    },
    cancel: close,
  })
  return new Response(body, {
    headers: {
      'content-type': 'application/vnd.sqlite3',
      'content-length': String(result.bytes),
      'content-disposition': `attachment; filename="${name}"`,
      'cache-control': 'no-store',
    },
  })
}

const tags = ['admin']

export const databaseRoutes = (deps: AdminDeps) =>
  new Elysia({ name: 'admin-database' })
    .use(authPlugin(deps))
    .get('/api/admin/database', () => databaseStats(deps), {
      admin: true,
      detail: {
        summary:
          "Rows and bytes per table (sizes: 'dbstat', or 'estimate' when this SQLite lacks dbstat), database and WAL file sizes, free pages, and the last backup (DATA_DIR/backups and audited downloads)",
        tags,
      },
    })
    .post(
      '/api/admin/database/integrity',
      ({ body, user }) => {
        const r = integrityCheck(deps, body?.mode ?? 'quick')
        recordAudit(deps, {
          actor: { id: user.id, email: user.email },
          action: 'db.integrity_check',
          details: { mode: r.mode, ok: r.ok, ms: r.ms, messages: r.messages.slice(0, 5) },
          result: r.ok ? 'ok' : 'failed',
        })
        return r
      },
      {
        admin: true,
        body: t.Optional(t.Object({ mode: t.Optional(t.UnionEnum(['quick', 'full'])) })),
        detail: { summary: "Integrity check {mode: 'quick' (default, PRAGMA quick_check) | 'full' (integrity_check)} → {ok, messages, ms}", tags },
      },
    )
    .post(
      '/api/admin/database/optimize',
      ({ user }) => {
        const actor = { id: user.id, email: user.email }
        try {
          const r = optimizeDatabase(deps)
          recordAudit(deps, { actor, action: 'db.optimize', details: { beforeBytes: r.before.total, afterBytes: r.after.total, ms: r.ms } })
          return r
        } catch (err) {
          // When another process holds the database, this row may not be writable either.
          try {
            recordAudit(deps, { actor, action: 'db.optimize', details: { error: (err as Error).message }, result: 'failed' })
          } catch (auditErr) {
            log.warn('could not record the failed optimize in the audit log', { error: String(auditErr) })
          }
          throw err
        }
      },
      {
        admin: true,
        detail: {
          summary: 'PRAGMA optimize, VACUUM, wal_checkpoint(TRUNCATE) → {before, after, savedBytes, ms}; 409 DB_BUSY when another process holds the database',
          tags,
        },
      },
    )
    .get('/api/admin/database/backup', ({ user }) => backupDownload(deps, { id: user.id, email: user.email }), {
      admin: true,
      detail: { summary: 'Download a consistent, verified copy of the database (VACUUM INTO), as an attachment; the temp copy is removed', tags },
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
        admin: true,
        body: t.Optional(t.Object({ olderThanHours: t.Optional(t.Integer({ minimum: 1, maximum: 24 * 366 })) })),
        detail: {
          summary: 'Archive (delete) posts older than olderThanHours (default 168 = 7 days, which keeps the live feed); matches keep their copy → {count}',
          tags,
        },
      },
    )
