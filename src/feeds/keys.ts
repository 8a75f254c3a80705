// The secret in a user's feed addresses (owner of feed_keys). A feed reader cannot send a cookie or a
// header, so the URL itself is the credential: /feeds/<secret>/matches.atom. The secret is
// HMAC-SHA256(SESSION_SECRET, "feed:<user id>:<nonce>"): the user can be shown it again at any time,
// yet the table holds only the nonce and the secret's SHA-256 (to find the user from a URL), so a
// copy of the database opens no feed. Rotating draws a new nonce; the old URL is not found at once.
// A changed SESSION_SECRET changes every feed address (re-derived and re-stored on the next look).
import { createHmac, randomBytes } from 'node:crypto'
import type { Deps } from '../deps'
import { hashToken } from '../lib/tokens'
import { isActiveUser } from '../auth/users'

type KeyRow = { user_id: number; nonce: string; secret_hash: string }

function derive(deps: Pick<Deps, 'config'>, userId: number, nonce: string): string {
  return createHmac('sha256', deps.config.secrets.sessionSecret).update(`feed:${userId}:${nonce}`).digest('base64url')
}

function store(deps: Pick<Deps, 'sqlite' | 'config' | 'now'>, userId: number, nonce: string): string {
  const secret = derive(deps, userId, nonce)
  deps.sqlite
    .query(
      `INSERT INTO feed_keys (user_id, nonce, secret_hash, created_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (user_id) DO UPDATE SET nonce = excluded.nonce, secret_hash = excluded.secret_hash, created_at = excluded.created_at`,
    )
    .run(userId, nonce, hashToken(secret), deps.now().getTime())
  return secret
}

/** The user's feed secret, made on first use. */
export function feedSecret(deps: Pick<Deps, 'sqlite' | 'config' | 'now'>, userId: number): string {
  const row = deps.sqlite.query<KeyRow, [number]>('SELECT * FROM feed_keys WHERE user_id = ?').get(userId)
  if (row === null) return store(deps, userId, randomBytes(16).toString('base64url'))
  const secret = derive(deps, userId, row.nonce)
  // SESSION_SECRET changed since: the stored hash no longer finds this secret
  if (hashToken(secret) !== row.secret_hash) deps.sqlite.query('UPDATE feed_keys SET secret_hash = ? WHERE user_id = ?').run(hashToken(secret), userId)
  return secret
}

/** That the user has feed addresses, and since when (the data export: never the nonce or the hash); null when none were made. */
export function feedKeyOf(deps: Pick<Deps, 'sqlite'>, userId: number): { createdAt: Date } | null {
  const row = deps.sqlite.query<{ created_at: number }, [number]>('SELECT created_at FROM feed_keys WHERE user_id = ?').get(userId)
  return row ? { createdAt: new Date(row.created_at) } : null
}

/** A new secret: every address made from the old one stops answering at once. */
export function rotateFeedSecret(deps: Pick<Deps, 'sqlite' | 'config' | 'now'>, userId: number): string {
  return store(deps, userId, randomBytes(16).toString('base64url'))
}

/** The user a feed URL's secret belongs to (not banned), or null. */
export async function feedOwner(deps: Pick<Deps, 'db' | 'sqlite'>, secret: string): Promise<{ userId: number; keyCreatedAt: number } | null> {
  if (!/^[A-Za-z0-9_-]{20,100}$/.test(secret)) return null
  const key = deps.sqlite
    .query<{ userId: number; keyCreatedAt: number }, [string]>('SELECT user_id AS userId, created_at AS keyCreatedAt FROM feed_keys WHERE secret_hash = ?')
    .get(hashToken(secret))
  return key !== null && (await isActiveUser(deps, key.userId)) ? key : null
}
