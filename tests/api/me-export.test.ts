// Issue 28 §3: GET /api/me/export holds every row of every table with a user_id that belongs to the
// signed-in user (the test walks src/db/schema.ts), nothing of another user, and no secret.
import { feedSecret } from '../../src/feeds/keys'
import { describe, expect, test } from 'bun:test'
import { is } from 'drizzle-orm'
import { getTableConfig, SQLiteTable } from 'drizzle-orm/sqlite-core'
import { createToken } from '../../src/auth/access-tokens'
import * as schema from '../../src/db/schema'
import { EXPORT_FORMAT, type UserExport } from '../../src/me/export'
import { call, createUserWithSession, eachTestApp, type TestDeps } from '../helpers'

const t = eachTestApp()

/** Where the export holds each user_id table's rows (a new such table must be added here and to the export). */
const ROWS_IN_EXPORT: Record<string, (e: UserExport) => unknown[]> = {
  user_access: (e) => (e.access ? [e.access] : []),
  access_history: (e) => e.accessHistory,
  auth_identities: (e) => e.signIn.googleIdentities,
  auth_factors: (e) => e.signIn.twoFactor,
  recovery_codes: (e) => e.signIn.recoveryCodes,
  sessions: (e) => e.signIn.sessions,
  one_time_tokens: (e) => e.signIn.emailLinks,
  access_tokens: (e) => e.signIn.tokens,
  feed_keys: (e) => (e.signIn.feedKey ? [e.signIn.feedKey] : []),
  search_terms: (e) => e.terms,
  matches: (e) => [...e.matches, ...e.archive],
  match_defaults: (e) => (e.preferences.matching ? [e.preferences.matching] : []),
  notification_prefs: (e) => (e.preferences.notifications ? [e.preferences.notifications] : []),
  notify_endpoints: (e) => e.channels,
  push_subscriptions: (e) => e.devices,
  outbox: (e) => e.deliveries,
  contact_messages: (e) => e.messages,
  alert_latency: (e) => e.alertTimings,
}

/** Tables of src/db/schema.ts with a user_id column. */
function userTables(): string[] {
  return (Object.values(schema) as unknown[])
    .filter((v): v is SQLiteTable => is(v, SQLiteTable))
    .map((table) => getTableConfig(table))
    .filter((c) => c.columns.some((col) => col.name === 'user_id'))
    .map((c) => c.name)
    .sort()
}

/** A user with a row in every user_id table; returns the secrets their rows hold and words only they have. */
async function seedEverything(deps: TestDeps, tag: string) {
  const u = await createUserWithSession(deps, { email: `${tag}@example.com`, password: `password-${tag}`, name: `Name ${tag}` })
  const s = schema
  const now = deps.now()
  const hash = (deps.sqlite.query('SELECT password_hash AS h FROM users WHERE id = ?').get(u.userId) as { h: string }).h
  const sessionId = (deps.sqlite.query('SELECT id FROM sessions WHERE user_id = ?').get(u.userId) as { id: string }).id
  deps.db.insert(s.accessHistory).values({ userId: u.userId, role: 'product+gd', source: 'signup' }).run()
  deps.db
    .insert(s.authIdentities)
    .values({ userId: u.userId, provider: 'google', providerUserId: `google-${tag}`, email: `${tag}@gmail.com` })
    .run()
  deps.db
    .insert(s.authFactors)
    .values({ userId: u.userId, factorType: 'totp', secret: `TOTPSECRET${tag}`, verifiedAt: now })
    .run()
  deps.db
    .insert(s.recoveryCodes)
    .values({ userId: u.userId, codeHash: `RECOVERYHASH${tag}`, scheme: 'scrypt' })
    .run()
  deps.db
    .insert(s.oneTimeTokens)
    .values({ id: `EMAILLINKHASH${tag}`, userId: u.userId, purpose: 'reset', expiresAt: now })
    .run()
  const token = await createToken(deps, u.userId, { name: `bot ${tag}`, scopes: ['read'] })
  const tokenHash = new Bun.CryptoHasher('sha256').update(token.token).digest('hex')
  const term = deps.db
    .insert(s.searchTerms)
    .values({ userId: u.userId, category: 'wts', term: `term-${tag}` })
    .returning()
    .get()
  for (const archived of [null, now]) {
    const m = deps.db
      .insert(s.matches)
      .values({
        userId: u.userId,
        category: 'wts',
        matchedTerms: [`term-${tag}`],
        postTitle: `Post ${tag}`,
        postUrl: `https://example.com/${tag}`,
        archivedAt: archived,
      })
      .returning()
      .get()
    deps.db.insert(s.matchTerms).values({ matchId: m.id, termId: term.id }).run()
    deps.db.insert(s.alertLatency).values({ matchId: m.id, userId: u.userId, matchedAt: now.getTime() }).run()
  }
  deps.db
    .insert(s.matchDefaults)
    .values({ userId: u.userId, excludeWords: [`exclude-${tag}`] })
    .run()
  deps.db.insert(s.notificationPrefs).values({ userId: u.userId, emailFrequency: 'instant' }).run()
  deps.db
    .insert(s.notifyEndpoints)
    .values({ userId: u.userId, kind: 'webhook', url: `https://hooks.example.com/${tag}`, secret: `WEBHOOKSECRET${tag}` })
    .run()
  deps.db
    .insert(s.notifyEndpoints)
    .values({ userId: u.userId, kind: 'discord', url: `https://discord.com/api/webhooks/1/DISCORDTOKEN${tag}` })
    .run()
  deps.db
    .insert(s.pushSubscriptions)
    .values({ userId: u.userId, endpoint: `https://push.example.com/send/PUSHCAPABILITY${tag}`, p256dh: `P256DHKEY${tag}`, auth: `PUSHAUTH${tag}` })
    .run()
  deps.db
    .insert(s.outbox)
    .values({
      channel: 'email',
      kind: 'reset',
      userId: u.userId,
      dedupeKey: `reset:${tag}`,
      payload: { url: `https://x.example/reset?token=RESETLINK${tag}` },
      nextAttemptAt: now,
    })
    .run()
  deps.db
    .insert(s.contactMessages)
    .values({ userId: u.userId, email: u.email, subject: `Subject ${tag}`, message: `Message ${tag}` })
    .run()
  const feedSecretOfUser = await feedSecret(deps, u.userId)
  const feedRow = deps.sqlite
    .query<{ nonce: string; secret_hash: string }, [number]>('SELECT nonce, secret_hash FROM feed_keys WHERE user_id = ?')
    .get(u.userId)!
  return {
    ...u,
    secrets: [
      feedSecretOfUser,
      feedRow.nonce,
      feedRow.secret_hash,
      hash,
      sessionId,
      u.token,
      `TOTPSECRET${tag}`,
      `RECOVERYHASH${tag}`,
      `EMAILLINKHASH${tag}`,
      token.token,
      tokenHash,
      `WEBHOOKSECRET${tag}`,
      `DISCORDTOKEN${tag}`,
      `PUSHCAPABILITY${tag}`,
      `P256DHKEY${tag}`,
      `PUSHAUTH${tag}`,
      `RESETLINK${tag}`,
    ],
    words: [
      u.email,
      `Name ${tag}`,
      `term-${tag}`,
      `Post ${tag}`,
      `exclude-${tag}`,
      `google-${tag}`,
      `bot ${tag}`,
      `Subject ${tag}`,
      `hooks.example.com/${tag}`,
    ],
  }
}

describe('GET /api/me/export', () => {
  test('holds every row of every user_id table of the user, and no other user’s data', async () => {
    const a = await seedEverything(t.deps, 'alice')
    const b = await seedEverything(t.deps, 'bob')
    const r = await call(t.app, 'GET', '/api/me/export', { cookie: a.cookie })
    expect(r.status).toBe(200)
    expect(r.headers.get('content-disposition')).toBe(`attachment; filename="dibs-data-${t.clock.now().toISOString().slice(0, 10)}.json"`)
    const data = r.body as UserExport
    expect(data.format).toBe(EXPORT_FORMAT)
    expect(data.account).toMatchObject({ id: a.userId, email: a.email, hasPassword: true })

    expect(userTables()).toEqual(Object.keys(ROWS_IN_EXPORT).sort())
    for (const [table, rowsOf] of Object.entries(ROWS_IN_EXPORT)) {
      const stored = (t.deps.sqlite.query(`SELECT count(*) AS n FROM ${table} WHERE user_id = ?`).get(a.userId) as { n: number }).n
      expect({ table, rows: rowsOf(data).length }).toEqual({ table, rows: stored })
      expect({ table, seeded: stored > 0 }).toEqual({ table, seeded: true })
    }
    expect(data.archive).toHaveLength(1)
    const termId = data.terms[0]!.id
    expect([...data.matches, ...data.archive].map((m) => m.termIds)).toEqual([[termId], [termId]])

    for (const word of a.words) expect(r.text).toContain(word)
    for (const word of b.words) expect(r.text).not.toContain(word)
  })

  test('holds no secret of the user (hashes, TOTP secret, channel secrets, push keys, tokens, mail bodies)', async () => {
    const a = await seedEverything(t.deps, 'alice')
    const r = await call(t.app, 'GET', '/api/me/export', { cookie: a.cookie })
    for (const secret of a.secrets) expect({ secret, found: r.text.includes(secret) }).toEqual({ secret, found: false })
  })

  test('signed out it answers 401; a personal access token gets 403 (the whole account is for the signed-in owner)', async () => {
    const { cookie, userId } = await createUserWithSession(t.deps)
    expect((await call(t.app, 'GET', '/api/me/export')).status).toBe(401)
    const { token } = await createToken(t.deps, userId, { name: 'x', scopes: ['read', 'write'] })
    const r = await call(t.app, 'GET', '/api/me/export', { cookie, headers: { authorization: `Bearer ${token}` } })
    expect(r.status).toBe(403)
    expect(r.body.error.code).toBe('TOKEN_NOT_ALLOWED')
  })
})
