// A kill while the outbox is sending (issue 11 item 11): the row is marked `sending`, with the
// attempt's start time, in its own commit before the network call; on restart such rows are
// "maybe sent". Email goes again only 10 minutes after the attempt started, with the same
// Message-ID (a provider can drop the copy); push goes again at once (the tag makes the browser
// replace, not add, the notification). The first test SIGKILLs a real server process while a real
// SMTP server holds its answer to the message.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { Database } from 'bun:sqlite'
import { join } from 'node:path'
import { eq } from 'drizzle-orm'
import { openDb } from '../../src/db/client'
import { outbox } from '../../src/db/schema'
import { channelStore } from '../../src/notify/channel-store'
import { createChannels } from '../../src/outbox/channels'
import { webpushChannel } from '../../src/outbox/channels/webpush'
import { EMAIL_MAYBE_SENT_DELAY_MS, enqueueEmail, processOutbox, recoverStuckSending, type Sender } from '../../src/outbox/queue'
import { pushMessage } from '../../src/notify/dispatcher'
import { call, createUserWithSession, makeApp, makeDeps, tempDir, testClock, serveProcess } from '../helpers'
import { startFakePushService, type FakePushService } from '../fakes/push-service'
import { fakeOauthEnv, startFakeReddit, type FakeReddit } from '../fakes/reddit'
import { startSmtp, type FakeSmtp } from '../fakes/smtp'
import { makeMatch } from './notify-helpers'

let smtp: FakeSmtp
let push: FakePushService
let reddit: FakeReddit
beforeAll(async () => {
  smtp = await startSmtp()
  push = await startFakePushService()
  reddit = await startFakeReddit()
})
afterAll(async () => {
  smtp.hold = false
  await smtp.stop()
  await push.stop()
  await reddit.stop()
})

const serve = async (env: Record<string, string>) => (await serveProcess(env)).proc

const row = (dbPath: string, id: number) => {
  const db = new Database(dbPath)
  try {
    return db
      .query<{ status: string; attempts: number; next_attempt_at: number; last_error: string | null }, [number]>(
        'SELECT status, attempts, next_attempt_at, last_error FROM outbox WHERE id = ?',
      )
      .get(id)!
  } finally {
    db.close()
  }
}

describe('SIGKILL while an email is being sent', () => {
  test('the restarted server does not send it again at once: it is maybe sent, due 10 minutes after the attempt started', async () => {
    const dataDir = tempDir()
    const env = { DATA_DIR: dataDir, SMTP_URL: smtp.url, APP_URL: 'https://dibs.example.com', ...fakeOauthEnv(reddit) }
    const opened = openDb(join(dataDir, 'dibs.db'))
    const deps = { db: opened.db, now: () => new Date(), bus: { emit() {} } as never }
    const id = (await enqueueEmail(deps, 'confirm', {
      to: 'pat@example.com',
      subject: 'Confirm your email',
      text: 'https://dibs.example.com/confirm?t=1',
      html: '<p>hi</p>',
    }))!
    opened.close()
    smtp.messages.length = 0
    smtp.hold = true // the provider has the message but has not answered yet

    const first = await serve(env)
    const [mail] = await smtp.waitFor(1)
    expect(mail!.headers['message-id']).toMatch(new RegExp(`^<outbox-${id}\\.[\\w-]+@dibs\\.example\\.com>$`))
    const during = row(join(dataDir, 'dibs.db'), id)
    expect(during).toMatchObject({ status: 'sending', attempts: 1 })
    first.kill('SIGKILL')
    await first.exited

    smtp.hold = false
    const second = await serve(env)
    try {
      await Bun.sleep(3000) // the outbox job runs every second
      expect(smtp.messages).toHaveLength(1)
      const after = row(join(dataDir, 'dibs.db'), id)
      expect(after.status).toBe('pending')
      expect(after.attempts).toBe(1)
      expect(after.next_attempt_at).toBe(during.next_attempt_at + EMAIL_MAYBE_SENT_DELAY_MS)
      expect(after.last_error).toContain('maybe sent')
    } finally {
      second.kill('SIGTERM')
      await second.exited
    }
  }, 30_000)
})

describe('maybe-sent rows on restart', () => {
  test('email goes again only after 10 minutes, with the same Message-ID; push goes again at once with the same tag', async () => {
    const clock = testClock(Date.parse('2026-03-01T12:00:00Z'))
    const deps = makeDeps({ SMTP_URL: smtp.url, APP_URL: 'https://dibs.example.com' }, clock)
    const channels = createChannels(deps, channelStore, { push: webpushChannel(deps, channelStore, { transport: { tls: { ca: push.cert } } }) })
    const senders: Record<string, Sender> = { email: (r) => channels.email.send(r), push: (r) => channels.push.send(r) }
    smtp.messages.length = 0
    push.received.length = 0
    try {
      const u = await createUserWithSession(deps, { email: 'sam@example.com' })
      const device = push.subscribe()
      const app = makeApp(deps)
      const sub = await call(app, 'POST', '/api/push/subscriptions', {
        cookie: u.cookie,
        json: { endpoint: device.endpoint, keys: device.keys },
        headers: { origin: 'https://dibs.example.com' },
      })
      expect(sub.status).toBe(201)
      const m = makeMatch(deps, u.userId)
      const emailId = (await enqueueEmail(
        deps,
        'match',
        { to: u.email, subject: 'Match', text: m.url, html: '<p>match</p>' },
        { dedupeKey: `match:${m.id}:email` },
      ))!
      const subscriptionId = (deps.sqlite.query('SELECT id FROM push_subscriptions').get() as { id: number }).id
      const pushId = deps.db
        .insert(outbox)
        .values({
          channel: 'push',
          kind: 'match',
          dedupeKey: `match:${m.id}:push:${subscriptionId}`,
          payload: { subscriptionId, message: pushMessage(deps, { ...m, matchedTerms: ['trijicon'] } as never) },
          nextAttemptAt: clock.now(),
          createdAt: clock.now(),
        })
        .returning()
        .get().id

      // The process dies mid-send: the claim is committed, the sends never finish.
      const never: Sender = () => new Promise(() => {})
      void processOutbox(deps, { email: never, push: never })
      await Bun.sleep(0) // the claim's statement runs on the next turn (the worker awaits it), then the sends start
      const claimed = deps.db.select().from(outbox).all()
      expect(claimed.map((r) => [r.status, r.attempts, r.nextAttemptAt.getTime()])).toEqual([
        ['sending', 1, clock.now().getTime()],
        ['sending', 1, clock.now().getTime()],
      ])
      // …after the provider had taken the email in.
      await channels.email.send(deps.db.select().from(outbox).where(eq(outbox.id, emailId)).get()!)
      expect(smtp.messages).toHaveLength(1)

      clock.advance(30_000) // the restart
      expect(await recoverStuckSending(deps)).toBe(2)
      expect(await processOutbox(deps, senders)).toMatchObject({ sent: 1 })
      expect(push.received).toHaveLength(1)
      expect(push.received[0]!.payload).toMatchObject({ tag: `match-${m.id}` })
      expect(smtp.messages).toHaveLength(1)
      expect(deps.db.select().from(outbox).where(eq(outbox.id, pushId)).get()!.status).toBe('sent')

      clock.advance(EMAIL_MAYBE_SENT_DELAY_MS - 30_000 - 1)
      expect(await processOutbox(deps, senders)).toMatchObject({ sent: 0 })
      clock.advance(1)
      expect(await processOutbox(deps, senders)).toMatchObject({ sent: 1 })
      await smtp.waitFor(2)
      expect(smtp.messages[1]!.headers['message-id']).toBe(smtp.messages[0]!.headers['message-id']!)
      expect(smtp.messages[1]!.headers['message-id']).toMatch(new RegExp(`^<outbox-${emailId}\\.[\\w-]+@dibs\\.example\\.com>$`))
      expect(deps.db.select().from(outbox).where(eq(outbox.id, emailId)).get()).toMatchObject({ status: 'sent', attempts: 2 })
    } finally {
      channels.email.close?.()
      deps.close()
    }
  })

  test('Message-IDs differ between rows, and between databases that reuse a row id (a restored backup)', async () => {
    const a = makeDeps({ SMTP_URL: smtp.url, APP_URL: 'https://dibs.example.com' }, testClock(Date.parse('2026-03-01T12:00:00Z')))
    const b = makeDeps({ SMTP_URL: smtp.url, APP_URL: 'https://dibs.example.com' }, testClock(Date.parse('2026-03-02T12:00:00Z')))
    smtp.messages.length = 0
    const channelsA = createChannels(a, channelStore)
    const channelsB = createChannels(b, channelStore)
    try {
      const mail = { to: 'kim@example.com', subject: 'Hi', text: 'hi', html: '<p>hi</p>' }
      await enqueueEmail(a, 'confirm', mail, { dedupeKey: 'confirm:1' })
      await enqueueEmail(a, 'confirm', mail, { dedupeKey: 'confirm:2' })
      await enqueueEmail(b, 'confirm', mail, { dedupeKey: 'confirm:1' }) // same id and key, another database
      await processOutbox(a, { email: (r) => channelsA.email.send(r) })
      await processOutbox(b, { email: (r) => channelsB.email.send(r) })
      await smtp.waitFor(3)
      expect(new Set(smtp.messages.map((m) => m.headers['message-id'])).size).toBe(3)
    } finally {
      channelsA.email.close?.()
      channelsB.email.close?.()
      a.close()
      b.close()
    }
  })
})
