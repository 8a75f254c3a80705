// This folder's rows of one user for the data export (src/me/export.ts, GET /api/me/export): how the
// user signs in, never a secret (no provider tokens, TOTP secrets, code or session hashes, link tokens).
import { eq } from 'drizzle-orm'
import { authFactors, authIdentities, oneTimeTokens, recoveryCodes, sessions } from '../db/schema'
import type { OwnerDb } from '../db/async-db'
import { asAsync } from '../db/async-sqlite'

export async function signInData(deps: OwnerDb, userId: number) {
  const db = asAsync(deps.db)
  return {
    googleIdentities: await db
      .select({
        provider: authIdentities.provider,
        providerUserId: authIdentities.providerUserId,
        email: authIdentities.email,
        createdAt: authIdentities.createdAt,
      })
      .from(authIdentities)
      .where(eq(authIdentities.userId, userId)),
    twoFactor: await db
      .select({ factorType: authFactors.factorType, verifiedAt: authFactors.verifiedAt, createdAt: authFactors.createdAt })
      .from(authFactors)
      .where(eq(authFactors.userId, userId)),
    recoveryCodes: await db
      .select({ createdAt: recoveryCodes.createdAt, usedAt: recoveryCodes.usedAt })
      .from(recoveryCodes)
      .where(eq(recoveryCodes.userId, userId)),
    sessions: await db
      .select({
        createdAt: sessions.createdAt,
        lastSeenAt: sessions.lastSeenAt,
        expiresAt: sessions.expiresAt,
        userAgent: sessions.userAgent,
        ip: sessions.ip,
      })
      .from(sessions)
      .where(eq(sessions.userId, userId)),
    emailLinks: await db
      .select({ purpose: oneTimeTokens.purpose, createdAt: oneTimeTokens.createdAt, expiresAt: oneTimeTokens.expiresAt, usedAt: oneTimeTokens.usedAt })
      .from(oneTimeTokens)
      .where(eq(oneTimeTokens.userId, userId)),
  }
}
