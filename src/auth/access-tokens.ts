// Personal access tokens (issue 28): a script's credential for the user's own /api routes. The
// token is `dibs_pat_` + 256 random bits; only its SHA-256 is stored (as sessions are), so the
// owner sees it once. Revoking deletes the row; an expired token stays listed until revoked.
// Every read of the `access_tokens` table is here.
import { and, asc, count, eq } from 'drizzle-orm'
import type { OwnerDb } from '../db/async-db'
import { asAsync } from '../db/async-sqlite'
import { accessTokens, users } from '../db/schema'
import type { Deps } from '../deps'
import { accessRowOf, accessStateOf } from '../access/state'
import { AppError, badRequest, notFound } from '../lib/errors'
import { hashToken, randomToken } from '../lib/tokens'
import type { ValidSession } from './session'
import { TOKEN_SCOPES, type TokenScope } from './token-scopes'

export const TOKEN_PREFIX = 'dibs_pat_'
export const MAX_TOKENS = 20
export const MAX_TOKEN_NAME = 100
export const MAX_EXPIRY_DAYS = 365
/** last use is written at most this often per token (a busy script does not write on every call) */
const LAST_USE_PRECISION_MS = 60_000
const DAY_MS = 24 * 60 * 60 * 1000

type Row = typeof accessTokens.$inferSelect

/** What the owner sees of a token (never the token, never its hash). */
export function tokenView(row: Row, now: Date) {
  return {
    id: row.id,
    name: row.name,
    hint: `${row.hint}…`,
    scopes: row.scopes as TokenScope[],
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt?.toISOString() ?? null,
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    expired: row.expiresAt !== null && row.expiresAt.getTime() <= now.getTime(),
  }
}
export type TokenView = ReturnType<typeof tokenView>

export async function userTokenRows(deps: OwnerDb, userId: number): Promise<Row[]> {
  return await asAsync(deps.db).select().from(accessTokens).where(eq(accessTokens.userId, userId)).orderBy(asc(accessTokens.id))
}

export async function listTokens(deps: OwnerDb & Pick<Deps, 'now'>, userId: number): Promise<TokenView[]> {
  const now = deps.now()
  return (await userTokenRows(deps, userId)).map((r) => tokenView(r, now))
}

export type NewToken = { name?: unknown; scopes?: unknown; expiresInDays?: unknown }

/**
 * Checks the input, stores the hash and answers the token (the only time it is shown). The count and
 * the insert are one transaction: two creates at once cannot pass MAX_TOKENS (docs/atomicity-audit.md A4).
 */
export async function createToken(deps: OwnerDb & Pick<Deps, 'now'>, userId: number, input: NewToken): Promise<{ id: number; token: string; view: TokenView }> {
  const name = typeof input.name === 'string' ? input.name.trim() : ''
  if (!name) throw badRequest('Please name the token (what will use it?).', 'VALIDATION')
  if (name.length > MAX_TOKEN_NAME) throw badRequest(`A token name is at most ${MAX_TOKEN_NAME} characters.`, 'VALIDATION')
  const scopes = Array.isArray(input.scopes) ? [...new Set(input.scopes)] : []
  if (scopes.length === 0 || !scopes.every((s): s is TokenScope => TOKEN_SCOPES.includes(s as TokenScope)))
    throw badRequest(`Scopes must be one or both of ${TOKEN_SCOPES.map((s) => `'${s}'`).join(' and ')}.`, 'VALIDATION')
  const days = input.expiresInDays
  if (days !== undefined && days !== null && !(Number.isInteger(days) && (days as number) >= 1 && (days as number) <= MAX_EXPIRY_DAYS))
    throw badRequest(`expiresInDays must be a whole number of days from 1 to ${MAX_EXPIRY_DAYS} (or left out: no expiry).`, 'VALIDATION')
  const now = deps.now()
  const token = TOKEN_PREFIX + randomToken(32)
  const row = await asAsync(deps.db).transaction(async (tx) => {
    const held = (await tx.select({ n: count() }).from(accessTokens).where(eq(accessTokens.userId, userId)))[0]!.n
    if (held >= MAX_TOKENS) throw new AppError(409, 'TOKEN_LIMIT', `You can hold at most ${MAX_TOKENS} tokens. Revoke one you no longer use first.`)
    const [inserted] = await tx
      .insert(accessTokens)
      .values({
        userId,
        name,
        tokenHash: hashToken(token),
        hint: token.slice(0, TOKEN_PREFIX.length + 4),
        scopes: TOKEN_SCOPES.filter((s) => scopes.includes(s)),
        createdAt: now,
        expiresAt: typeof days === 'number' ? new Date(now.getTime() + days * DAY_MS) : null,
      })
      .returning()
    return inserted!
  })
  return { id: row.id, token, view: tokenView(row, now) }
}

/** Deletes one of the user's tokens; its open sockets close (the hub re-checks on 'sessions.revoked'). */
export async function revokeToken(deps: OwnerDb & Pick<Deps, 'bus'>, userId: number, id: number): Promise<{ ok: boolean }> {
  const [gone] = await asAsync(deps.db)
    .delete(accessTokens)
    .where(and(eq(accessTokens.id, id), eq(accessTokens.userId, userId)))
    .returning({ id: accessTokens.id })
  if (gone === undefined) throw notFound('No such token.', 'TOKEN_NOT_FOUND')
  deps.bus.emit('sessions.revoked', { userId })
  return { ok: true }
}

export type TokenSession = ValidSession & { token: { id: number; scopes: TokenScope[]; expiresAt: Date | null } }

/**
 * The user behind a Bearer token, as a session-shaped principal (`sessionId` is `token:<id>`, which
 * matches no session row), or null when the token is unknown, revoked, expired or its user banned.
 * Notes the use (at most once a minute).
 */
export async function validateAccessToken(deps: Pick<Deps, 'db' | 'now' | 'config'>, token: string): Promise<TokenSession | null> {
  if (!token.startsWith(TOKEN_PREFIX)) return null
  const db = asAsync(deps.db)
  const [row] = await db
    .select({ token: accessTokens, user: users })
    .from(accessTokens)
    .innerJoin(users, eq(users.id, accessTokens.userId))
    .where(eq(accessTokens.tokenHash, hashToken(token)))
    .limit(1)
  if (row === undefined) return null
  const now = deps.now()
  if (row.user.bannedAt !== null || (row.token.expiresAt !== null && row.token.expiresAt.getTime() <= now.getTime())) return null
  if (row.token.lastUsedAt === null || now.getTime() - row.token.lastUsedAt.getTime() >= LAST_USE_PRECISION_MS)
    await db.update(accessTokens).set({ lastUsedAt: now }).where(eq(accessTokens.id, row.token.id))
  const { user } = row
  return {
    sessionId: `token:${row.token.id}`,
    expiresAt: row.token.expiresAt ?? new Date(8.64e15),
    secondFactor: false,
    user: { id: user.id, email: user.email, name: user.name, emailConfirmedAt: user.emailConfirmedAt, bannedAt: user.bannedAt },
    access: accessStateOf(deps, user.email, await accessRowOf(deps, user.id)),
    token: { id: row.token.id, scopes: row.token.scopes as TokenScope[], expiresAt: row.token.expiresAt },
  }
}

/** Is this token still usable? (The hub asks after a revocation and when a token socket's expiry comes.) */
export async function tokenAlive(deps: OwnerDb & Pick<Deps, 'now'>, id: number): Promise<boolean> {
  const [row] = await asAsync(deps.db)
    .select({ expiresAt: accessTokens.expiresAt, bannedAt: users.bannedAt })
    .from(accessTokens)
    .innerJoin(users, eq(users.id, accessTokens.userId))
    .where(eq(accessTokens.id, id))
    .limit(1)
  return row !== undefined && row.bannedAt === null && (row.expiresAt === null || row.expiresAt.getTime() > deps.now().getTime())
}
