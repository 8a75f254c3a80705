// Sessions (after the Lucia guide): a random 256-bit token goes into an HttpOnly cookie, only its
// SHA-256 is stored; sliding expiry refreshes a session used in its second half. A session remembers
// whether its sign-in presented a two-factor code (`secondFactor`): the REQUIRE_ADMIN_2FA gate asks it.
import { and, count, eq, like, lt, max, ne } from 'drizzle-orm'
import type { OwnerDb } from '../db/async-db'
import { asAsync } from '../db/async-sqlite'
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

export async function createSession(
  deps: OwnerDb & Pick<Deps, 'now'>,
  userId: number,
  meta: { userAgent?: string | null; ip?: string | null; secondFactor?: boolean } = {},
): Promise<{ token: string; expiresAt: Date }> {
  const token = randomToken(32)
  const now = deps.now()
  const expiresAt = new Date(now.getTime() + SESSION_TTL_MS)
  await asAsync(deps.db)
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
  return { token, expiresAt }
}

/**
 * The user behind a cookie token, or null. Extends the expiry when past half its life. Every request
 * runs this: one read (the session joined to its user), a write only when the session ends or slides.
 */
export async function validateSession(deps: Pick<Deps, 'db' | 'now' | 'config'>, token: string | null | undefined): Promise<ValidSession | null> {
  if (!token) return null
  const db = asAsync(deps.db)
  const id = hashToken(token)
  const row = (
    await db.select({ session: sessions, user: users }).from(sessions).innerJoin(users, eq(users.id, sessions.userId)).where(eq(sessions.id, id)).limit(1)
  )[0]
  if (row === undefined) return null
  const now = deps.now()
  if (row.session.expiresAt.getTime() <= now.getTime() || row.user.bannedAt !== null) {
    await db.delete(sessions).where(eq(sessions.id, id))
    return null
  }
  let expiresAt = row.session.expiresAt
  if (expiresAt.getTime() - now.getTime() < SESSION_TTL_MS / 2) {
    expiresAt = new Date(now.getTime() + SESSION_TTL_MS)
    await db.update(sessions).set({ expiresAt, lastSeenAt: now }).where(eq(sessions.id, id))
  }
  const { user } = row
  return {
    sessionId: id,
    expiresAt,
    secondFactor: row.session.secondFactorAt !== null,
    user: { id: user.id, email: user.email, name: user.name, emailConfirmedAt: user.emailConfirmedAt, bannedAt: user.bannedAt },
    access: accessStateOf(deps, user.email, await accessRowOf(deps, user.id)),
  }
}

/** The session has just presented a two-factor code (it completed enrolment). */
export async function markSecondFactor(deps: OwnerDb & Pick<Deps, 'now'>, sessionId: string): Promise<void> {
  await asAsync(deps.db).update(sessions).set({ secondFactorAt: deps.now() }).where(eq(sessions.id, sessionId))
}

/** Did this session start within FRESH_SIGN_IN_MS? */
export async function isFreshSignIn(deps: OwnerDb & Pick<Deps, 'now'>, sessionId: string): Promise<boolean> {
  const row = (await asAsync(deps.db).select({ createdAt: sessions.createdAt }).from(sessions).where(eq(sessions.id, sessionId)).limit(1))[0]
  return row !== undefined && deps.now().getTime() - row.createdAt.getTime() <= FRESH_SIGN_IN_MS
}

/** Ends one session; its open sockets close ('sessions.revoked'). */
export async function invalidateSession(deps: OwnerDb & Pick<Deps, 'bus'>, sessionId: string): Promise<void> {
  const row = (await asAsync(deps.db).delete(sessions).where(eq(sessions.id, sessionId)).returning({ userId: sessions.userId }))[0]
  if (row !== undefined) deps.bus.emit('sessions.revoked', { userId: row.userId })
}

/** The user's sessions (Settings → Account: signed-in devices). */
export async function userSessions(deps: OwnerDb, userId: number): Promise<(typeof sessions.$inferSelect)[]> {
  return await asAsync(deps.db).select().from(sessions).where(eq(sessions.userId, userId))
}

/** Ends the user's session whose stored id starts with `prefix` (16 hex characters: the devices list's id); false when none did. */
export async function endSessionByPrefix(deps: OwnerDb, userId: number, prefix: string): Promise<boolean> {
  const gone = await asAsync(deps.db)
    .delete(sessions)
    .where(and(eq(sessions.userId, userId), like(sessions.id, `${prefix}%`)))
    .returning({ id: sessions.id })
  return gone.length > 0
}

/** Ends every session of a user (but `exceptSessionId`); their open sockets close. */
export async function invalidateUserSessions(deps: OwnerDb & Pick<Deps, 'bus'>, userId: number, exceptSessionId?: string): Promise<void> {
  // one statement: a session created meanwhile cannot slip between a read and the deletes (docs/atomicity-audit.md B8)
  await asAsync(deps.db)
    .delete(sessions)
    .where(and(eq(sessions.userId, userId), exceptSessionId === undefined ? undefined : ne(sessions.id, exceptSessionId)))
  deps.bus.emit('sessions.revoked', { userId })
}

/** Is this session (by its stored id) still alive? (The hub asks after a revocation.) */
export async function sessionAlive(deps: OwnerDb & Pick<Deps, 'now'>, sessionId: string): Promise<boolean> {
  const [row] = await asAsync(deps.db)
    .select({ expiresAt: sessions.expiresAt, bannedAt: users.bannedAt })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(eq(sessions.id, sessionId))
    .limit(1)
  return row !== undefined && row.bannedAt === null && row.expiresAt.getTime() > deps.now().getTime()
}

/** Sessions an account holds now (Admin → Users detail). */
export async function sessionCount(deps: OwnerDb, userId: number): Promise<number> {
  return (await asAsync(deps.db).select({ n: count() }).from(sessions).where(eq(sessions.userId, userId)))[0]!.n
}

/** Per account with a session, when its newest session began (ms): its last sign-in (Admin → Users). */
export async function lastSignIns(deps: OwnerDb): Promise<Map<number, number>> {
  const rows = await asAsync(deps.db)
    .select({ userId: sessions.userId, at: max(sessions.createdAt) })
    .from(sessions)
    .groupBy(sessions.userId)
  return new Map(rows.map((r) => [r.userId, r.at!.getTime()]))
}

export async function deleteExpiredSessions(deps: OwnerDb & Pick<Deps, 'now'>): Promise<number> {
  return (await asAsync(deps.db).delete(sessions).where(lt(sessions.expiresAt, deps.now())).returning({ id: sessions.id })).length
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
