// GET /healthz: liveness, a database round trip and the age of the last successful scan.
import { Elysia } from 'elysia'
import { and, desc, eq } from 'drizzle-orm'
import { maintenanceLogs } from '../db/schema'
import type { Deps } from '../deps'

export const SCAN_JOB = 'fetch-reddit-posts'

export function lastSuccessfulScan(deps: Pick<Deps, 'db'>): Date | null {
  const row = deps.db
    .select({ at: maintenanceLogs.executedAt })
    .from(maintenanceLogs)
    .where(and(eq(maintenanceLogs.jobName, SCAN_JOB), eq(maintenanceLogs.status, 'success')))
    .orderBy(desc(maintenanceLogs.executedAt))
    .limit(1)
    .get()
  return row?.at ?? null
}

export function health(deps: Pick<Deps, 'db' | 'sqlite' | 'now'>) {
  let dbOk = false
  try {
    dbOk = deps.sqlite.query('SELECT 1 AS ok').get() !== null
  } catch {
    dbOk = false
  }
  const last = dbOk ? lastSuccessfulScan(deps) : null
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
