// Single-use tokens for email confirmation and password reset: the raw token goes into the
// emailed link, only its SHA-256 is stored; using one marks it used (never deleted at once, so
// a second click can be told apart from a forged link).
//
// Several unused tokens of one purpose may exist. Confirmation: every resend adds one and the
// earlier ones stay valid until they expire (the reader may open any of the emails, and mail
// arrives out of order). Reset: a new request retires the earlier links. Either way, using one
// token retires its unused siblings, so only one link of a batch ever acts.
import { and, eq, isNull, lt } from 'drizzle-orm'
import { oneTimeTokens } from '../db/schema'
import type { Deps } from '../deps'
import { hashToken, randomToken } from '../lib/tokens'

export type TokenPurpose = 'confirm' | 'reset'
export const CONFIRM_TTL_MS = 24 * 60 * 60 * 1000
export const RESET_TTL_MS = 60 * 60 * 1000

const POLICY: Record<TokenPurpose, { ttlMs: number; newRetiresOld: boolean }> = {
  confirm: { ttlMs: CONFIRM_TTL_MS, newRetiresOld: false },
  reset: { ttlMs: RESET_TTL_MS, newRetiresOld: true },
}

/** Marks the user's unused tokens of a purpose used. */
function retireUnused(deps: Pick<Deps, 'db'>, userId: number, purpose: TokenPurpose, now: Date) {
  deps.db
    .update(oneTimeTokens)
    .set({ usedAt: now })
    .where(and(eq(oneTimeTokens.userId, userId), eq(oneTimeTokens.purpose, purpose), isNull(oneTimeTokens.usedAt)))
    .run()
}

/**
 * Issues a fresh token; for a reset, earlier unused reset links stop working. `ttlMs` replaces the
 * purpose's lifetime (an admin's invitation is a reset link valid for days).
 */
export function issueToken(deps: Pick<Deps, 'db' | 'now'>, userId: number, purpose: TokenPurpose, opts: { ttlMs?: number } = {}): string {
  const token = randomToken(32)
  const now = deps.now()
  const { newRetiresOld } = POLICY[purpose]
  const ttl = opts.ttlMs ?? POLICY[purpose].ttlMs
  if (newRetiresOld) retireUnused(deps, userId, purpose, now)
  deps.db
    .insert(oneTimeTokens)
    .values({ id: hashToken(token), userId, purpose, expiresAt: new Date(now.getTime() + ttl), createdAt: now })
    .run()
  return token
}

export type TokenCheck =
  { status: 'valid'; userId: number } | { status: 'used'; userId: number } | { status: 'expired'; userId: number } | { status: 'invalid' }

/** Looks a token up and, when valid, marks it and its unused siblings used in the same step. */
export function consumeToken(deps: Pick<Deps, 'db' | 'now'>, token: string | null | undefined, purpose: TokenPurpose): TokenCheck {
  if (!token || token.length > 200) return { status: 'invalid' }
  const id = hashToken(token)
  const row = deps.db
    .select()
    .from(oneTimeTokens)
    .where(and(eq(oneTimeTokens.id, id), eq(oneTimeTokens.purpose, purpose)))
    .get()
  if (row === undefined) return { status: 'invalid' }
  if (row.usedAt !== null) return { status: 'used', userId: row.userId }
  const now = deps.now()
  if (row.expiresAt.getTime() <= now.getTime()) return { status: 'expired', userId: row.userId }
  const changed = (
    deps.db
      .update(oneTimeTokens)
      .set({ usedAt: now })
      .where(and(eq(oneTimeTokens.id, id), isNull(oneTimeTokens.usedAt)))
      .run() as unknown as { changes: number }
  ).changes
  if (changed !== 1) return { status: 'used', userId: row.userId }
  retireUnused(deps, row.userId, purpose, now)
  return { status: 'valid', userId: row.userId }
}

/** Tokens a week past expiry are gone (the hourly cleanup job). */
export function deleteOldTokens(deps: Pick<Deps, 'db' | 'now'>) {
  const cutoff = new Date(deps.now().getTime() - 7 * 24 * 60 * 60 * 1000)
  return (deps.db.delete(oneTimeTokens).where(lt(oneTimeTokens.expiresAt, cutoff)).run() as unknown as { changes: number }).changes
}
