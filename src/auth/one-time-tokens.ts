// Single-use tokens for email confirmation and password reset: the raw token goes into the
// emailed link, only its SHA-256 is stored; using one marks it used (never deleted at once, so
// a second click can be told apart from a forged link).
//
// Several unused tokens of one purpose may exist. Confirmation: every resend adds one and the
// earlier ones stay valid until they expire (the reader may open any of the emails, and mail
// arrives out of order). Reset: a new request retires the earlier links. Either way, using one
// token retires its unused siblings, so only one link of a batch ever acts.
import { and, eq, isNull, lt } from 'drizzle-orm'
import type { OwnerDb } from '../db/async-db'
import { asAsync } from '../db/async-sqlite'
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
async function retireUnused(deps: OwnerDb, userId: number, purpose: TokenPurpose, now: Date): Promise<void> {
  await asAsync(deps.db)
    .update(oneTimeTokens)
    .set({ usedAt: now })
    .where(and(eq(oneTimeTokens.userId, userId), eq(oneTimeTokens.purpose, purpose), isNull(oneTimeTokens.usedAt)))
}

/**
 * Issues a fresh token; for a reset, earlier unused reset links stop working (retiring them and the
 * insert are one transaction: two requests at once leave one live link, docs/atomicity-audit.md D8).
 * `ttlMs` replaces the purpose's lifetime (an admin's invitation is a reset link valid for days).
 */
export async function issueToken(deps: OwnerDb & Pick<Deps, 'now'>, userId: number, purpose: TokenPurpose, opts: { ttlMs?: number } = {}): Promise<string> {
  const token = randomToken(32)
  const now = deps.now()
  const { newRetiresOld } = POLICY[purpose]
  const ttl = opts.ttlMs ?? POLICY[purpose].ttlMs
  await asAsync(deps.db).transaction(async (tx) => {
    if (newRetiresOld) await retireUnused({ db: tx }, userId, purpose, now)
    await tx.insert(oneTimeTokens).values({ id: hashToken(token), userId, purpose, expiresAt: new Date(now.getTime() + ttl), createdAt: now })
  })
  return token
}

export type TokenCheck =
  { status: 'valid'; userId: number } | { status: 'used'; userId: number } | { status: 'expired'; userId: number } | { status: 'invalid' }

/**
 * Looks a token up and, when valid, marks it and its unused siblings used in the same step: one
 * transaction, so of two sibling links used at once only one acts (docs/atomicity-audit.md B7).
 */
export async function consumeToken(deps: OwnerDb & Pick<Deps, 'now'>, token: string | null | undefined, purpose: TokenPurpose): Promise<TokenCheck> {
  if (!token || token.length > 200) return { status: 'invalid' }
  const id = hashToken(token)
  const now = deps.now()
  return await asAsync(deps.db).transaction(async (tx): Promise<TokenCheck> => {
    const [row] = await tx
      .select()
      .from(oneTimeTokens)
      .where(and(eq(oneTimeTokens.id, id), eq(oneTimeTokens.purpose, purpose)))
      .limit(1)
    if (row === undefined) return { status: 'invalid' }
    if (row.usedAt !== null) return { status: 'used', userId: row.userId }
    if (row.expiresAt.getTime() <= now.getTime()) return { status: 'expired', userId: row.userId }
    const changed = (
      await tx
        .update(oneTimeTokens)
        .set({ usedAt: now })
        .where(and(eq(oneTimeTokens.id, id), isNull(oneTimeTokens.usedAt)))
        .returning({ id: oneTimeTokens.id })
    ).length
    if (changed !== 1) return { status: 'used', userId: row.userId }
    await retireUnused({ db: tx }, row.userId, purpose, now)
    return { status: 'valid', userId: row.userId }
  })
}

/** Tokens a week past expiry are gone (the hourly cleanup job). */
export async function deleteOldTokens(deps: OwnerDb & Pick<Deps, 'now'>): Promise<number> {
  const cutoff = new Date(deps.now().getTime() - 7 * 24 * 60 * 60 * 1000)
  return (await asAsync(deps.db).delete(oneTimeTokens).where(lt(oneTimeTokens.expiresAt, cutoff)).returning({ id: oneTimeTokens.id })).length
}
