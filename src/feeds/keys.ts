// The secret in a user's feed addresses (owner of feed_keys). A feed reader cannot send a cookie or a
// header, so the URL itself is the credential: /feeds/<secret>/matches.atom. The secret is
// HMAC-SHA256(SESSION_SECRET, "feed:<user id>:<nonce>"): the user can be shown it again at any time,
// yet the table holds only the nonce and the secret's SHA-256 (to find the user from a URL), so a
// copy of the database opens no feed. Rotating draws a new nonce; the old URL is not found at once.
// A changed SESSION_SECRET changes every feed address (re-derived and re-stored on the next look).
import { createHmac, randomBytes } from 'node:crypto'
import { eq } from 'drizzle-orm'
import type { AsyncDb, OwnerDb } from '../db/async-db'
import { asAsync } from '../db/async-sqlite'
import { feedKeys } from '../db/schema'
import type { Deps } from '../deps'
import { hashToken } from '../lib/tokens'
import { isActiveUser } from '../auth/users'

type KeyDeps = OwnerDb & Pick<Deps, 'config' | 'now'>

function derive(deps: Pick<Deps, 'config'>, userId: number, nonce: string): string {
  return createHmac('sha256', deps.config.secrets.sessionSecret).update(`feed:${userId}:${nonce}`).digest('base64url')
}

async function keyOf(db: AsyncDb, userId: number) {
  return (await db.select().from(feedKeys).where(eq(feedKeys.userId, userId)).limit(1))[0]
}

/**
 * The user's feed secret, made on first use. A first look that races another (the page and a
 * prefetch) keeps the nonce the first one stored (DO NOTHING, then read back), so both answers show
 * the same addresses (docs/atomicity-audit.md C8).
 */
export async function feedSecret(deps: KeyDeps, userId: number): Promise<string> {
  const db = asAsync(deps.db)
  let row = await keyOf(db, userId)
  if (row === undefined) {
    const nonce = randomBytes(16).toString('base64url')
    await db
      .insert(feedKeys)
      .values({ userId, nonce, secretHash: hashToken(derive(deps, userId, nonce)), createdAt: deps.now() })
      .onConflictDoNothing({ target: feedKeys.userId })
    row = (await keyOf(db, userId))!
  }
  const secret = derive(deps, userId, row.nonce)
  // SESSION_SECRET changed since: the stored hash no longer finds this secret
  if (hashToken(secret) !== row.secretHash)
    await db
      .update(feedKeys)
      .set({ secretHash: hashToken(secret) })
      .where(eq(feedKeys.userId, userId))
  return secret
}

/** That the user has feed addresses, and since when (the data export: never the nonce or the hash); null when none were made. */
export async function feedKeyOf(deps: OwnerDb, userId: number): Promise<{ createdAt: Date } | null> {
  const row = await keyOf(asAsync(deps.db), userId)
  return row ? { createdAt: row.createdAt } : null
}

/** A new secret: every address made from the old one stops answering at once. */
export async function rotateFeedSecret(deps: KeyDeps, userId: number): Promise<string> {
  const nonce = randomBytes(16).toString('base64url')
  const secret = derive(deps, userId, nonce)
  const values = { nonce, secretHash: hashToken(secret), createdAt: deps.now() }
  await asAsync(deps.db)
    .insert(feedKeys)
    .values({ userId, ...values })
    .onConflictDoUpdate({ target: feedKeys.userId, set: values })
  return secret
}

/** The user a feed URL's secret belongs to (not banned), or null. */
export async function feedOwner(deps: OwnerDb & Pick<Deps, 'sqlite'>, secret: string): Promise<{ userId: number; keyCreatedAt: number } | null> {
  if (!/^[A-Za-z0-9_-]{20,100}$/.test(secret)) return null
  const [key] = await asAsync(deps.db)
    .select({ userId: feedKeys.userId, keyCreatedAt: feedKeys.createdAt })
    .from(feedKeys)
    .where(eq(feedKeys.secretHash, hashToken(secret)))
    .limit(1)
  return key !== undefined && (await isActiveUser(deps, key.userId)) ? { userId: key.userId, keyCreatedAt: key.keyCreatedAt.getTime() } : null
}
