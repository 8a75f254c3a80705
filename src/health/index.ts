// GET /healthz: liveness, a database round trip and the age of the last successful scan.
import { Elysia } from 'elysia'
import type { Deps } from '../deps'
import { JOB, lastSuccess } from '../jobs/log'

export function health(deps: Pick<Deps, 'db' | 'sqlite' | 'now'>) {
  let dbOk = false
  try {
    dbOk = deps.sqlite.query('SELECT 1 AS ok').get() !== null
  } catch {
    dbOk = false
  }
  const last = dbOk ? lastSuccess(deps, JOB.scan) : null
  return {
    status: dbOk ? 'ok' : 'error',
    db: dbOk ? 'ok' : 'error',
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
    { detail: { summary: 'Liveness, database and last successful scan age', tags: ['system'] } },
  )
