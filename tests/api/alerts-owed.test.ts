// Alerts owed (issue: alerts lost between storing matches and queueing their alerts). The runner
// commits matches in one transaction and the dispatcher queues their email, push and channel rows in
// a later one. A match that alerts is recorded as owed in the first transaction and settled in the
// second; a server that starts with owed matches queues their alerts before its jobs, idempotently
// by the dedupe keys. The crash test SIGKILLs a real server process in that window, which the
// test-only DIBS_TEST_HOLD_DISPATCH_MS hook holds open.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { Database } from 'bun:sqlite'
import { join } from 'node:path'
import { openDb } from '../../src/db/client'
import { notificationPrefs, searchTerms, userAccess, users } from '../../src/db/schema'
import { recordMatches, type Hit } from '../../src/matches/runner'
import { owedCount } from '../../src/matches/owed'
import { dispatchOwed } from '../../src/notify/dispatcher'
import { MAYBE_SENT, processOutbox, recoverStuckSending, type Sender } from '../../src/outbox/queue'
import { createUserWithSession, makeApp, makeDeps, tempDir, testClock, call, serveProcess } from '../helpers'
import { fakeOauthEnv, startFakeReddit, type FakeReddit } from '../fakes/reddit'
import { startSmtp, type FakeSmtp } from '../fakes/smtp'

let smtp: FakeSmtp
let reddit: FakeReddit
beforeAll(async () => {
  smtp = await startSmtp()
  reddit = await startFakeReddit({ clientId: 'id', clientSecret: 'secret' })
})
afterAll(async () => {
  await smtp.stop()
  await reddit.stop()
})

const serve = serveProcess

async function waitUntil(what: string, ok: () => boolean, timeoutMs = 20_000) {
  const until = Date.now() + timeoutMs
  while (!ok()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`)
    await Bun.sleep(25)
  }
}

const USERS = 3
const POSTS = 20

describe('SIGKILL between the match commit and the queueing of its alerts', () => {
  test('the restarted server queues every owed alert, exactly once each, and sends each once', async () => {
    const dataDir = tempDir()
    const dbPath = join(dataDir, 'dibs.db')
    // Three subscribers with instant email and the term 'rmr', saved a minute ago.
    const opened = openDb(dbPath)
    const termTime = new Date(Date.now() - 60_000)
    for (let i = 0; i < USERS; i++) {
      const u = opened.db
        .insert(users)
        .values({ email: `buyer${i}@example.com`, name: `Buyer ${i}`, emailConfirmedAt: termTime })
        .returning()
        .get()
      opened.db.insert(userAccess).values({ userId: u.id, role: 'product+gd', subscriptionStatus: 'active' }).run()
      opened.db.insert(notificationPrefs).values({ userId: u.id, emailFrequency: 'instant', updatedAt: termTime }).run()
      opened.db.insert(searchTerms).values({ userId: u.id, category: 'wts', term: 'rmr', createdAt: termTime }).run()
    }
    opened.close()
    for (let i = 0; i < POSTS; i++) reddit.publish({ title: `[WTS] Trijicon RMR Type 2 RM0${i % 9} #${i} - $${400 + i}` })
    smtp.messages.length = 0
    const env = {
      DATA_DIR: dataDir,
      SMTP_URL: smtp.url,
      APP_URL: 'https://dibs.example.com',
      ...fakeOauthEnv(reddit),
    }
    const read = <T>(sql: string) => {
      const db = new Database(dbPath, { readonly: true })
      try {
        return db.query(sql).get() as T
      } finally {
        db.close()
      }
    }
    const count = (sql: string) => read<{ n: number }>(sql).n

    // 1. The first scan stores the matches; the hook holds the dispatcher; the process is killed there.
    const first = await serve({ ...env, DIBS_TEST_HOLD_DISPATCH_MS: '600000' })
    await waitUntil('the held dispatch', () => first.output().includes('test hook: dispatch held'))
    const matches = count("SELECT count(*) AS n FROM matches WHERE source = 'live'")
    expect(matches).toBe(USERS * POSTS)
    expect(count('SELECT count(*) AS n FROM alerts_owed')).toBe(matches)
    expect(count('SELECT count(*) AS n FROM outbox')).toBe(0)
    first.proc.kill('SIGKILL')
    await first.proc.exited

    // 2. The restart queues them before its jobs run: one email row per match, nothing owed.
    const second = await serve(env)
    try {
      expect(second.output()).toContain(`alerts: ${matches} match(es) were stored but their alerts not queued`)
      expect(count('SELECT count(*) AS n FROM alerts_owed')).toBe(0)
      expect(count("SELECT count(*) AS n FROM outbox WHERE kind = 'match' AND channel = 'email'")).toBe(matches)
      expect(count("SELECT count(DISTINCT dedupe_key) AS n FROM outbox WHERE dedupe_key LIKE 'match:%:email'")).toBe(matches)
      const ids = read<{ ok: number }>(
        "SELECT count(*) = (SELECT count(*) FROM matches) AS ok FROM matches m JOIN outbox o ON o.dedupe_key = 'match:' || m.id || ':email'",
      )
      expect(ids.ok).toBe(1)
      await smtp.waitFor(matches, 20_000)
      await waitUntil('every row sent', () => count("SELECT count(*) AS n FROM outbox WHERE status = 'sent'") === matches)
      expect(smtp.messages).toHaveLength(matches)
      expect(new Set(smtp.messages.map((m) => m.headers['message-id'])).size).toBe(matches)
      expect(new Set(smtp.messages.map((m) => `${m.to.join(',')} ${m.subject}`)).size).toBe(matches)
    } finally {
      second.proc.kill('SIGTERM')
      await second.proc.exited
    }

    // 3. Another start owes nothing and queues nothing more.
    const third = await serve(env)
    try {
      await Bun.sleep(1500)
      expect(third.output()).not.toContain('alerts: ')
      expect(count('SELECT count(*) AS n FROM outbox')).toBe(matches)
      expect(smtp.messages).toHaveLength(matches)
    } finally {
      third.proc.kill('SIGTERM')
      await third.proc.exited
    }
  }, 90_000)
})

describe('owed alerts in one process', () => {
  test('a live match that alerts is owed from its own commit until its alerts are queued; one that does not alert never is', async () => {
    const clock = testClock(Date.parse('2026-03-01T12:00:00Z'))
    const deps = await makeDeps({}, clock)
    try {
      makeApp(deps) // the dispatcher listens, as in a server
      const u = await createUserWithSession(deps, { emailFrequency: 'instant' })
      const termId = Number(
        deps.sqlite
          .query("INSERT INTO search_terms (user_id, category, term, created_at) VALUES (?, 'wts', 'rmr', ?)")
          .run(u.userId, clock.now().getTime() - 1000).lastInsertRowid,
      )
      const post = (id: number, createdAt: number) =>
        deps.sqlite
          .query(
            "INSERT INTO posts (id, reddit_id, forum, subreddit, title, url, author, created_at, post_type) VALUES (?, ?, 'product', 'GunAccessoriesForSale', ?, ?, 'seller', ?, 'wts')",
          )
          .run(id, `p${id}`, `[WTS] RMR #${id}`, `https://www.reddit.com/r/x/comments/p${id}/`, createdAt)
      post(1, clock.now().getTime())
      post(2, clock.now().getTime() - 60_000) // before the term: stored as read, never alerts
      const { posts } = await import('../../src/db/schema')
      const rows = deps.db.select().from(posts).all()
      const hits: Hit[] = rows.map((p) => ({ userId: u.userId, post: p, terms: [{ id: termId, text: 'rmr', createdAt: clock.now().getTime() - 1000 }] }))
      const result = await recordMatches(deps, hits, 'live')
      expect(result.created.map((c) => c.notify)).toEqual([true, false])
      expect(await owedCount(deps)).toBe(1)
      // The dispatch of the next macrotask queues the email and settles the debt in one transaction.
      const { announceMatches } = await import('../../src/matches/runner')
      await announceMatches(deps, result)
      await Bun.sleep(5)
      expect(await owedCount(deps)).toBe(0)
      expect(deps.sqlite.query("SELECT dedupe_key FROM outbox WHERE kind = 'match'").all()).toEqual([
        { dedupe_key: `match:${result.created[0]!.item.id}:email` },
      ])
    } finally {
      deps.close()
    }
  })

  test('dispatchOwed is idempotent: a match dispatched again (owed once more) still has one row per alert', async () => {
    const deps = await makeDeps({}, testClock(Date.parse('2026-03-01T12:00:00Z')))
    try {
      const u = await createUserWithSession(deps, { emailFrequency: 'instant' })
      const { makeMatch } = await import('./notify-helpers')
      const m = makeMatch(deps, u.userId)
      deps.sqlite.query('INSERT INTO alerts_owed (match_id, created_at) VALUES (?, ?)').run(m.id, Date.now())
      expect(await dispatchOwed(deps)).toBe(1)
      deps.sqlite.query('INSERT INTO alerts_owed (match_id, created_at) VALUES (?, ?)').run(m.id, Date.now())
      expect(await dispatchOwed(deps)).toBe(1)
      expect(await dispatchOwed(deps)).toBe(0)
      expect(deps.sqlite.query('SELECT count(*) AS n FROM outbox WHERE dedupe_key = ?').get(`match:${m.id}:email`)).toEqual({ n: 1 })
    } finally {
      deps.close()
    }
  })

  test("olderThanMs: only the matches owed for longer (the job alerts-owed: another node died, a dispatch failed); the fresh ones are the dispatcher's", async () => {
    const t0 = Date.parse('2026-03-01T12:00:00Z')
    const deps = await makeDeps({}, testClock(t0))
    try {
      const u = await createUserWithSession(deps, { emailFrequency: 'instant' })
      const { makeMatch } = await import('./notify-helpers')
      const [old, fresh] = [makeMatch(deps, u.userId), makeMatch(deps, u.userId)]
      deps.sqlite.query('INSERT INTO alerts_owed (match_id, created_at) VALUES (?, ?)').run(old.id, t0 - 31_000)
      deps.sqlite.query('INSERT INTO alerts_owed (match_id, created_at) VALUES (?, ?)').run(fresh.id, t0 - 5_000)
      expect(await dispatchOwed(deps, { olderThanMs: 30_000 })).toBe(1)
      expect(deps.sqlite.query('SELECT match_id AS id FROM alerts_owed').all()).toEqual([{ id: fresh.id }])
      expect(deps.sqlite.query('SELECT dedupe_key AS k FROM outbox').all()).toEqual([{ k: `match:${old.id}:email` }])
    } finally {
      deps.close()
    }
  })
})

describe('possibly duplicated sends in /metrics', () => {
  test('a row recovered from sending and sent again counts in dibs_outbox_maybe_duplicate_sends_total, also after a failed retry', async () => {
    const clock = testClock(Date.parse('2026-03-01T12:00:00Z'))
    const deps = await makeDeps({ METRICS_TOKEN: 'metrics-secret-token-123456' }, clock)
    try {
      const app = makeApp(deps)
      const insert = (key: string, channel: string) =>
        deps.sqlite
          .query(
            "INSERT INTO outbox (channel, kind, dedupe_key, payload, status, attempts, next_attempt_at, created_at) VALUES (?, 'match', ?, '{}', 'pending', 0, ?, ?)",
          )
          .run(channel, key, clock.now().getTime(), clock.now().getTime())
      insert('a', 'push')
      insert('b', 'push')
      insert('c', 'email')
      // The process dies mid-send: all three claimed, none recorded.
      void processOutbox(deps, { push: () => new Promise(() => {}), email: () => new Promise(() => {}) })
      await Bun.sleep(0) // the claim's statement runs on the next turn (the worker awaits it)
      expect(await recoverStuckSending(deps)).toBe(3)
      deps.metrics.maybeSentRecovered(3)
      let fail = true
      const senders: Record<string, Sender> = {
        push: async (row) => {
          if (row.dedupeKey === 'b' && fail) {
            fail = false
            throw new Error('push service answered 503')
          }
        },
        email: async () => {},
      }
      clock.advance(1)
      await processOutbox(deps, senders, { onDone: deps.metrics.delivered }) // a: sent again; b: failed retry
      const b = deps.sqlite.query("SELECT last_error FROM outbox WHERE dedupe_key = 'b'").get() as { last_error: string }
      expect(b.last_error).toBe(`${MAYBE_SENT}; then: push service answered 503`)
      clock.advance(15 * 60_000)
      await processOutbox(deps, senders, { onDone: deps.metrics.delivered }) // b sent on its retry, c after its 10 minutes
      await processOutbox(deps, senders, { onDone: deps.metrics.delivered }) // nothing more: sent rows are not maybe-sent any more
      const r = await call(app, 'GET', '/metrics', { headers: { authorization: 'Bearer metrics-secret-token-123456' } })
      expect(r.status).toBe(200)
      expect(r.text).toContain('dibs_outbox_maybe_sent_recovered_total 3')
      expect(r.text).toContain('dibs_outbox_maybe_duplicate_sends_total{channel="push"} 2')
      expect(r.text).toContain('dibs_outbox_maybe_duplicate_sends_total{channel="email"} 1')
    } finally {
      deps.close()
    }
  })
})
