// Admin → Database → Download backup: a verified copy streamed as an attachment, nothing left on disk.
import { mkdtempSync, rmSync } from 'node:fs'
import { open } from 'node:fs/promises'
import { join } from 'node:path'
import { audited, type AuditActor } from '../../audit/log'
import { backupDatabase } from '../../db/backup'
import { badRequest } from '../../lib/errors'
import type { Deps } from '../../deps'

type DbDeps = Pick<Deps, 'config' | 'sqlite' | 'db' | 'now'>

/**
 * A consistent copy made with VACUUM INTO (src/db/backup.ts: a read snapshot, verified with
 * integrity_check) in a private temp folder inside DATA_DIR, opened and then unlinked at once: the
 * open handle streams it, and nothing is left on disk whether the download ends or is cancelled.
 */
export async function backupDownload(deps: DbDeps, actor: AuditActor): Promise<Response> {
  if (deps.sqlite === null) throw badRequest('Backups of a PostgreSQL database are made with pg_dump on the database server (docs/operating.md).', 'NOT_SQLITE')
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
