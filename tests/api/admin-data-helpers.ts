// Shared by the admin Database, Trends and Alerts suites: an app with an admin, a subscriber and a
// signed-out visitor, and the scenario table every admin route must pass.
import { expect } from 'bun:test'
import { auditLog } from '../../src/db/schema'
import { ADMIN_ONLY } from '../../src/auth/plugin'
import { call, createUserWithSession, makeApp, makeDeps, testClock, type TestDeps } from '../helpers'

export type AdminWorld = {
  deps: TestDeps
  app: ReturnType<typeof makeApp>
  clock: ReturnType<typeof testClock>
  admin: { userId: number; email: string; cookie: string }
  user: { userId: number; email: string; cookie: string }
}

export async function adminWorld(env: Record<string, string> = {}, start = Date.parse('2026-03-10T12:00:00Z')): Promise<AdminWorld> {
  const clock = testClock(start)
  const deps = await makeDeps(env, clock)
  const admin = await createUserWithSession(deps, { email: 'admin@example.com', role: 'admin' })
  const user = await createUserWithSession(deps, { email: 'sub@example.com', role: 'product+gd' })
  return { deps, app: makeApp(deps), clock, admin, user }
}

export type Route = { method: string; path: string; json?: unknown }

/**
 * Signed out → 401, a subscriber → 403 with the admin-only text, and neither writes an audit row;
 * the admin → `adminStatus` (checked by the caller's own tests for the body).
 */
export async function expectAdminOnly(w: AdminWorld, route: Route, adminStatus = 200) {
  const audits = () => w.deps.db.select().from(auditLog).all().length
  const before = audits()
  const out = await call(w.app, route.method, route.path, { json: route.json })
  expect([route.path, out.status]).toEqual([route.path, 401])
  const sub = await call(w.app, route.method, route.path, { json: route.json, cookie: w.user.cookie })
  expect([route.path, sub.status, sub.body?.error?.message]).toEqual([route.path, 403, ADMIN_ONLY])
  expect(audits()).toBe(before)
  const admin = await call(w.app, route.method, route.path, { json: route.json, cookie: w.admin.cookie })
  expect([route.path, admin.status]).toEqual([route.path, adminStatus])
  return admin
}

export const auditRows = (w: AdminWorld, action: string) =>
  w.deps.db
    .select()
    .from(auditLog)
    .all()
    .filter((r) => r.action === action)
