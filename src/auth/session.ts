// Sessions (after the Lucia guide): a random 256-bit token goes into an HttpOnly cookie, only its
// SHA-256 is stored; sliding expiry refreshes a session used in its second half. A session remembers
// whether its sign-in presented a two-factor code (`secondFactor`): the REQUIRE_ADMIN_2FA gate asks it.
import { and, eq, lt, ne } from 'drizzle-orm'
import { sessions, users } from '../db/schema'
import type { Deps } from '../deps'
import { hashToken, randomToken } from '../lib/tokens'
import { cookieValue } from '../lib/cookie-header'
import type { AccessState } from '../access/rules'
import { accessRowOf, accessStateOf } from '../access/state'

export const SESSION_COOKIE = 'dibs_session'
export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000
/** A session started this recently counts as a fresh sign-in (the re-entry of accounts without a password). */
export const FRESH_SIGN_IN_MS = 10 * 60 * 1000

export type SessionUser = { id: number; email: string; name: string; emailConfirmedAt: Date | null; bannedAt: Date | null }
export type ValidSession = { sessionId: string; user: SessionUser; access: AccessState; expiresAt: Date; secondFactor: boolean }

export function createSession(
  deps: Pick<Deps, 'db' | 'now'>,
  userId: number,
  meta: { userAgent?: string | null; ip?: string | null; secondFactor?: boolean } = {},
) {
  const token = randomToken(32)
  const now = deps.now()
  const expiresAt = new Date(now.getTime() + SESSION_TTL_MS)
  deps.db
    .insert(sessions)
    .values({
      id: hashToken(token),
      userId,
      createdAt: now,
      lastSeenAt: now,
      expiresAt,
      userAgent: meta.userAgent ?? null,
      ip: meta.ip ?? null,
      secondFactorAt: meta.secondFactor ? now : null,
    })
    .run()
  return { token, expiresAt }
}

/** The user behind a cookie token, or null. Extends the expiry when past half its life. */
export function validateSession(deps: Pick<Deps, 'db' | 'now' | 'config'>, token: string | null | undefined): ValidSession | null {
  if (!token) return null
  const id = hashToken(token)
  const row = deps.db.select({ session: sessions, user: users }).from(sessions).innerJoin(users, eq(users.id, sessions.userId)).where(eq(sessions.id, id)).get()
  if (row === undefined) return null
  const now = deps.now()
  if (row.session.expiresAt.getTime() <= now.getTime() || row.user.bannedAt !== null) {
    deps.db.delete(sessions).where(eq(sessions.id, id)).run()
    return null
  }
  let expiresAt = row.session.expiresAt
  if (expiresAt.getTime() - now.getTime() < SESSION_TTL_MS / 2) {
    expiresAt = new Date(now.getTime() + SESSION_TTL_MS)
    deps.db.update(sessions).set({ expiresAt, lastSeenAt: now }).where(eq(sessions.id, id)).run()
  }
  const { user } = row
  return {
    sessionId: id,
    expiresAt,
    secondFactor: row.session.secondFactorAt !== null,
    user: { id: user.id, email: user.email, name: user.name, emailConfirmedAt: user.emailConfirmedAt, bannedAt: user.bannedAt },
    access: accessStateOf(deps, user.email, accessRowOf(deps, user.id)),
  }
}

/** The session has just presented a two-factor code (it completed enrolment). */
export function markSecondFactor(deps: Pick<Deps, 'db' | 'now'>, sessionId: string) {
  deps.db.update(sessions).set({ secondFactorAt: deps.now() }).where(eq(sessions.id, sessionId)).run()
}

/** Did this session start within FRESH_SIGN_IN_MS? */
export function isFreshSignIn(deps: Pick<Deps, 'db' | 'now'>, sessionId: string): boolean {
  const row = deps.db.select({ createdAt: sessions.createdAt }).from(sessions).where(eq(sessions.id, sessionId)).get()
  return row !== undefined && deps.now().getTime() - row.createdAt.getTime() <= FRESH_SIGN_IN_MS
}

/** Ends one session; its open sockets close ('sessions.revoked'). */
export function invalidateSession(deps: Pick<Deps, 'db' | 'bus'>, sessionId: string) {
  const row = deps.db.delete(sessions).where(eq(sessions.id, sessionId)).returning({ userId: sessions.userId }).get()
  if (row !== undefined) deps.bus.emit('sessions.revoked', { userId: row.userId })
}

/** Ends every session of a user (but `exceptSessionId`); their open sockets close. */
export function invalidateUserSessions(deps: Pick<Deps, 'db' | 'bus'>, userId: number, exceptSessionId?: string) {
  // one statement: a session created meanwhile cannot slip between a read and the deletes (docs/atomicity-audit.md B8)
  deps.db
    .delete(sessions)
    .where(and(eq(sessions.userId, userId), exceptSessionId === undefined ? undefined : ne(sessions.id, exceptSessionId)))
    .run()
  deps.bus.emit('sessions.revoked', { userId })
}

/** Is this session (by its stored id) still alive? (The hub asks after a revocation.) */
export function sessionAlive(deps: Pick<Deps, 'db' | 'now'>, sessionId: string): boolean {
  const row = deps.db
    .select({ expiresAt: sessions.expiresAt, bannedAt: users.bannedAt })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(eq(sessions.id, sessionId))
    .get()
  return row !== undefined && row.bannedAt === null && row.expiresAt.getTime() > deps.now().getTime()
}

/** Sessions an account holds now (Admin → Users detail). */
export function sessionCount(deps: Pick<Deps, 'sqlite'>, userId: number): number {
  return deps.sqlite.query<{ n: number }, [number]>('SELECT count(*) AS n FROM sessions WHERE user_id = ?').get(userId)!.n
}

/** Per account with a session, when its newest session began (ms): its last sign-in (Admin → Users). */
export function lastSignIns(deps: Pick<Deps, 'sqlite'>): Map<number, number> {
  const rows = deps.sqlite.query<{ userId: number; at: number }, []>('SELECT user_id AS userId, max(created_at) AS at FROM sessions GROUP BY user_id').all()
  return new Map(rows.map((r) => [r.userId, r.at]))
}

export function deleteExpiredSessions(deps: Pick<Deps, 'db' | 'now'>) {
  return (deps.db.delete(sessions).where(lt(sessions.expiresAt, deps.now())).run() as unknown as { changes: number }).changes
}

export function sessionCookie(deps: Pick<Deps, 'config'>, token: string, expiresAt: Date): string {
  const secure = deps.config.secureCookies ? '; Secure' : ''
  return `${SESSION_COOKIE}=${token}; Path=/; HttpOnly; SameSite=Lax; Expires=${expiresAt.toUTCString()}${secure}`
}

export function clearSessionCookie(deps: Pick<Deps, 'config'>): string {
  const secure = deps.config.secureCookies ? '; Secure' : ''
  return `${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0${secure}`
}

export function readSessionToken(cookieHeader: string | null): string | null {
  return cookieValue(cookieHeader, SESSION_COOKIE) || null
}
