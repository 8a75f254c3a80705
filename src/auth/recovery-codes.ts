// One-time recovery codes of a two-factor account (ASVS 2.6.2). Every row says how its hash was made:
//   'sha256'         a code of 24 characters of Crockford's base32 (120 bits), shown as four groups of
//                    six; with ≥ 112 bits a SHA-256 is enough, and the row is found by it
//   'short-sha256'   a 10-character code (≈ 49.5 bits) made before, as an unsalted SHA-256 that a
//                    leaked database would give up offline: the server upgrades these at startup to
//   'short-argon2id' argon2id (salted, slow) over that SHA-256; checked one by one when a short code is
//                    typed, so the codes people saved keep working
// Using a code marks it used in the same statement that checks it is unused: each works once.
import { and, count, eq, isNull } from 'drizzle-orm'
import { randomBytes } from 'node:crypto'
import type { OwnerDb } from '../db/async-db'
import { asAsync } from '../db/async-sqlite'
import { recoveryCodes } from '../db/schema'
import type { Deps } from '../deps'
import { hashToken } from '../lib/tokens'

export const RECOVERY_CODE_COUNT = 10
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ' // Crockford: no I, L, O, U; 32 letters, so a byte's low 5 bits pick one evenly
const LENGTH = 24
const OLD_LENGTH = 10
/** argon2id light enough to check a user's 10 old codes in one sign-in, slow enough to make guessing 49 bits offline hopeless. */
const OLD_CODE_COST = { algorithm: 'argon2id', memoryCost: 4096, timeCost: 2 } as const

export function newRecoveryCode(): string {
  const raw = [...randomBytes(LENGTH)].map((b) => ALPHABET[b & 31]).join('')
  return raw.match(/.{6}/g)!.join('-')
}

/** What was typed, as stored: upper case, separators and spaces dropped, look-alikes read as Crockford does. */
export function normaliseRecoveryCode(code: string): string {
  return code
    .toUpperCase()
    .replace(/[^A-Z0-9]/g, '')
    .replace(/[IL]/g, '1')
    .replace(/O/g, '0')
}

/** Replaces the user's codes (inside the caller's transaction: `deps.db` is its `tx`). */
export async function storeRecoveryCodes(deps: OwnerDb, userId: number, codes: string[], now: Date): Promise<void> {
  const db = asAsync(deps.db)
  await db.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId))
  if (codes.length === 0) return
  await db.insert(recoveryCodes).values(codes.map((c) => ({ userId, codeHash: hashToken(normaliseRecoveryCode(c)), scheme: 'sha256', createdAt: now })))
}

async function markUsed(deps: OwnerDb & Pick<Deps, 'now'>, userId: number, where: ReturnType<typeof and>): Promise<boolean> {
  const used = await asAsync(deps.db)
    .update(recoveryCodes)
    .set({ usedAt: deps.now() })
    .where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt), where))
    .returning({ id: recoveryCodes.id })
  return used.length === 1
}

/** Spends an unused code of this user; false when there is none such. */
export async function spendRecoveryCode(deps: OwnerDb & Pick<Deps, 'now'>, userId: number, typed: string): Promise<boolean> {
  const code = normaliseRecoveryCode(typed)
  if (code.length === LENGTH) return markUsed(deps, userId, and(eq(recoveryCodes.scheme, 'sha256'), eq(recoveryCodes.codeHash, hashToken(code))))
  if (code.length !== OLD_LENGTH) return false
  // Old codes are read as they were stored then: upper case, separators dropped, no look-alike mapping.
  const old = hashToken(typed.toUpperCase().replace(/[^A-Z0-9]/g, ''))
  if (await markUsed(deps, userId, and(eq(recoveryCodes.scheme, 'short-sha256'), eq(recoveryCodes.codeHash, old)))) return true
  const rows = await asAsync(deps.db)
    .select({ id: recoveryCodes.id, codeHash: recoveryCodes.codeHash })
    .from(recoveryCodes)
    .where(and(eq(recoveryCodes.userId, userId), eq(recoveryCodes.scheme, 'short-argon2id'), isNull(recoveryCodes.usedAt)))
  for (const row of rows) if (await Bun.password.verify(old, row.codeHash).catch(() => false)) return markUsed(deps, userId, eq(recoveryCodes.id, row.id))
  return false
}

export async function unusedRecoveryCodes(deps: OwnerDb, userId: number): Promise<number> {
  const [row] = await asAsync(deps.db)
    .select({ n: count() })
    .from(recoveryCodes)
    .where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt)))
  return row!.n
}

/** At startup: every old code's unsalted SHA-256 becomes argon2id over it. Returns how many. */
export async function upgradeOldRecoveryCodes(deps: OwnerDb): Promise<number> {
  const db = asAsync(deps.db)
  const rows = await db.select({ id: recoveryCodes.id, codeHash: recoveryCodes.codeHash }).from(recoveryCodes).where(eq(recoveryCodes.scheme, 'short-sha256'))
  for (const row of rows) {
    const codeHash = await Bun.password.hash(row.codeHash, OLD_CODE_COST)
    await db
      .update(recoveryCodes)
      .set({ codeHash, scheme: 'short-argon2id' })
      .where(and(eq(recoveryCodes.id, row.id), eq(recoveryCodes.scheme, 'short-sha256')))
  }
  return rows.length
}
