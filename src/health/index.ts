// GET /healthz: liveness, a database round trip, storage (full or not) and the age of the last
// successful scan. Any trouble answers 503 so a container health check notices.
import { statfsSync } from 'node:fs'
import { Elysia } from 'elysia'
import type { Deps } from '../deps'
import { JOB, lastSuccess } from '../jobs/log'
import { storageFullRecently } from '../lib/storage'

/** Below this much free space on DATA_DIR's file system, the next write may fail. */
const MIN_FREE_BYTES = 1024 * 1024

/**
 * 'full' when a write failed for lack of space within the last minute (src/app.ts, the jobs), when
 * the database has reached its page limit with no free page left, or when DATA_DIR's file system
 * has under 1 MiB left for the service user.
 */
export function storageState(deps: Pick<Deps, 'sqlite' | 'config'>): 'ok' | 'full' {
  if (storageFullRecently(deps.sqlite)) return 'full'
  try {
    const n = (pragma: string) => Number(Object.values(deps.sqlite.query(`PRAGMA ${pragma}`).get() as object)[0])
    if (n('page_count') >= n('max_page_count') && n('freelist_count') === 0) return 'full'
  } catch {}
  try {
    const fs = statfsSync(deps.config.dataDir)
    if (fs.bavail * fs.bsize < MIN_FREE_BYTES) return 'full'
  } catch {}
  return 'ok'
}

export function health(deps: Pick<Deps, 'db' | 'sqlite' | 'now' | 'config'>) {
  let dbOk = false
  try {
    dbOk = deps.sqlite.query('SELECT 1 AS ok').get() !== null
  } catch {
    dbOk = false
  }
  const storage = storageState(deps)
  const last = dbOk ? lastSuccess(deps, JOB.scan) : null
  return {
    status: dbOk && storage === 'ok' ? 'ok' : 'error',
    db: dbOk ? 'ok' : 'error',
    storage,
    lastScanAt: last?.toISOString() ?? null,
    lastScanAgeSeconds: last ? Math.max(0, Math.round((deps.now().getTime() - last.getTime()) / 1000)) : null,
    uptimeSeconds: Math.round(process.uptime()),
  }
}

export const healthRoutes = (deps: Deps) =>
  new Elysia({ name: 'health' }).get(
    '/healthz',
    ({ set }) => {
      const body = health(deps)
      if (body.status !== 'ok') set.status = 503
      return body
    },
    { detail: { summary: 'Liveness, database, storage and last successful scan age', tags: ['system'] } },
  )
