// src/outbox/store.ts: each transition of src/outbox/status.ts moves only the rows in its `from`
// statuses to its `to` statuses, with the columns it owns; rows in other statuses are left alone.
import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { eq, notExists, sql } from 'drizzle-orm'
import { openDb, type OpenedDb } from '../../../src/db/client'
import { outbox, users } from '../../../src/db/schema'
import { OUTBOX_STATUSES, OUTBOX_TRANSITIONS, type OutboxStatus, type TransitionName } from '../../../src/outbox/status'
import { rowWithKey } from '../../../src/outbox/stats'
import {
  cancel,
  claim,
  dueHeld,
  dueWaiting,
  fold,
  insertRow,
  markFailed,
  markSent,
  matchIdOfKey,
  prune,
  recover,
  release,
  requeue,
  retryLater,
  skip,
  wait,
} from '../../../src/outbox/store'
import { tempDir } from '../../helpers'

const T0 = new Date('2026-05-01T12:00:00Z')
const at = (s: number) => new Date(T0.getTime() + s * 1000)

let dir: string
let opened: OpenedDb
let deps: Pick<OpenedDb, 'db'>
let userId: number
beforeEach(() => {
  dir = tempDir()
  opened = openDb(join(dir, 'dibs.db'))
  deps = { db: opened.db }
  userId = opened.db.insert(users).values({ email: 'pat@example.com' }).returning({ id: users.id }).get().id
})
afterEach(() => {
  opened.close()
  rmSync(dir, { recursive: true, force: true })
})

/** A row in `status` (written directly: the test sets the scene), due at `due` seconds from T0. */
function row(
  status: OutboxStatus,
  o: { channel?: string; kind?: string; key?: string; due?: number; attempts?: number; error?: string; sentAt?: number } = {},
): number {
  return opened.db
    .insert(outbox)
    .values({
      channel: o.channel ?? 'email',
      kind: o.kind ?? 'match',
      userId,
      dedupeKey: o.key ?? null,
      payload: {},
      status,
      attempts: o.attempts ?? 0,
      nextAttemptAt: at(o.due ?? 0),
      lastError: o.error ?? null,
      sentAt: o.sentAt === undefined ? null : at(o.sentAt),
      createdAt: T0,
    })
    .returning({ id: outbox.id })
    .get().id
}
const get = (id: number) => opened.db.select().from(outbox).where(eq(outbox.id, id)).get()
const statusOf = (id: number) => get(id)?.status ?? 'gone'
/** One row in each status: the ones a transition must leave alone. */
const oneOfEach = () => Object.fromEntries(OUTBOX_STATUSES.map((s) => [s, row(s, { due: 0 })])) as Record<OutboxStatus, number>
const untouched = (rows: Record<OutboxStatus, number>, except: OutboxStatus[]) =>
  expect(OUTBOX_STATUSES.filter((s) => !except.includes(s)).map((s) => statusOf(rows[s]))).toEqual(OUTBOX_STATUSES.filter((s) => !except.includes(s)))

const tested = new Set<TransitionName>()
const transition = (name: TransitionName, title: string, fn: () => void | Promise<void>) => {
  tested.add(name)
  test(`${name} (${OUTBOX_TRANSITIONS[name].from.join(' | ')} → ${OUTBOX_TRANSITIONS[name].to.join(' | ')}): ${title}`, fn)
}

describe('the transitions', () => {
  transition('enqueue', 'a new pending row, due at once; the same dedupe key again is ignored', async () => {
    const base = { channel: 'email', kind: 'confirm', userId, dedupeKey: 'k1', payload: { a: 1 }, held: false, dueAt: T0, note: null, at: T0 }
    const id = (await insertRow(deps, base))!
    expect(get(id)).toMatchObject({ status: 'pending', attempts: 0, nextAttemptAt: T0, payload: { a: 1 }, lastError: null })
    expect(await insertRow(deps, { ...base, payload: { a: 2 } })).toBeNull()
    expect(get(id)!.payload).toEqual({ a: 1 })
  })

  transition('hold', 'a new held row, due at the end of the hold, with its note', async () => {
    const id = (await insertRow(deps, {
      channel: 'push',
      kind: 'match',
      userId,
      dedupeKey: null,
      payload: {},
      held: true,
      dueAt: at(3600),
      note: 'quiet',
      at: T0,
    }))!
    expect(get(id)).toMatchObject({ status: 'held', nextAttemptAt: at(3600), lastError: 'quiet' })
  })

  transition('claim', 'due pending rows, oldest due first, up to the limit; attempt counted, start time written', async () => {
    const rows = oneOfEach()
    const late = row('pending', { due: -10, attempts: 2 })
    const notDue = row('pending', { due: 5 })
    const digest = row('pending', { due: -20, kind: 'digest' })
    const claimed = await claim(deps, { now: at(1), limit: 2 })
    // the two due first: the digest (-20) and `late` (-10); pending (0) waits for the next batch
    expect(claimed.map((r) => r.id)).toEqual([late, digest])
    expect(claimed.find((r) => r.id === late)).toMatchObject({ status: 'sending', attempts: 3, nextAttemptAt: at(1) })
    expect([statusOf(rows.pending), statusOf(notDue)]).toEqual(['pending', 'pending'])
    untouched(rows, ['pending'])
    // alert kinds stay pending while the emergency pause holds them
    expect(await claim(deps, { now: at(1), limit: 10, exceptKinds: ['match', 'digest'] })).toEqual([])
    expect((await claim(deps, { now: at(1), limit: 10 })).map((r) => r.id)).toEqual([rows.pending])
  })

  transition('markSent', 'sent with its time, the last error cleared', async () => {
    const id = row('sending', { attempts: 2, error: 'timeout' })
    await markSent(deps, id, at(7))
    expect(get(id)).toMatchObject({ status: 'sent', sentAt: at(7), lastError: null, attempts: 2 })
  })

  transition('retryLater', 'pending again with the error, due after the backoff', async () => {
    const id = row('sending', { attempts: 1 })
    await retryLater(deps, id, { error: 'SMTP 451', dueAt: at(5) })
    expect(get(id)).toMatchObject({ status: 'pending', lastError: 'SMTP 451', nextAttemptAt: at(5), attempts: 1 })
  })

  transition('markFailed', 'failed with the error', async () => {
    const id = row('sending', { attempts: 15 })
    await markFailed(deps, id, { error: 'SMTP 550', dueAt: at(5) })
    expect(get(id)).toMatchObject({ status: 'failed', lastError: 'SMTP 550', attempts: 15 })
  })

  transition('recover', 'sending rows are maybe sent: push due now, email 10 minutes after its attempt, out of attempts → failed', async () => {
    const rows = oneOfEach()
    const push = row('sending', { channel: 'push', due: -60 })
    const email = row('sending', { channel: 'email', due: -60 })
    const spent = row('sending', { attempts: 15 })
    expect(await recover(deps, { now: T0, maxAttempts: 15, emailDelayMs: 600_000, note: 'maybe' })).toBe(4)
    expect(get(push)).toMatchObject({ status: 'pending', nextAttemptAt: T0, lastError: 'maybe' })
    expect(get(email)).toMatchObject({ status: 'pending', nextAttemptAt: at(540), lastError: 'maybe' })
    expect(statusOf(spent)).toBe('failed')
    expect(statusOf(rows.sending)).toBe('pending')
    untouched(rows, ['sending'])
  })

  transition('recover', "claimedBefore: only rows claimed at or before it (another live node's sends in flight stay sending)", async () => {
    const old = row('sending', { channel: 'push', due: -900 })
    const fresh = row('sending', { channel: 'push', due: -60 })
    expect(await recover(deps, { now: T0, maxAttempts: 15, emailDelayMs: 600_000, note: 'maybe', claimedBefore: at(-900) })).toBe(1)
    expect(get(old)).toMatchObject({ status: 'pending', nextAttemptAt: T0, lastError: 'maybe' })
    expect(statusOf(fresh)).toBe('sending')
  })

  transition('requeue', 'one failed row, or every one, pending with attempts reset; the channels told', async () => {
    const rows = oneOfEach()
    const a = row('failed', { channel: 'push', attempts: 15 })
    expect(await requeue(deps, at(2), rows.pending)).toEqual([]) // not failed
    expect(await requeue(deps, at(2), a)).toEqual(['push'])
    expect(get(a)).toMatchObject({ status: 'pending', attempts: 0, nextAttemptAt: at(2) })
    untouched(rows, [])
    expect(await requeue(deps, at(3))).toEqual(['email'])
    expect(statusOf(rows.failed)).toBe('pending')
  })

  transition('wait', "the user's pending email and push rows of the match wait; other channels, users and matches do not", async () => {
    const email = row('pending', { key: 'match:7:email' })
    const push = row('pending', { channel: 'push', key: 'match:7:push:3' })
    const discord = row('pending', { channel: 'discord', key: 'match:7:discord:1' })
    const other = row('pending', { key: 'match:70:email' })
    const sent = row('sent', { key: 'match:7:email:old' })
    expect(await wait(deps, { userId, matchId: 7, until: at(30) })).toBe(2)
    expect(get(email)).toMatchObject({ status: 'waiting', nextAttemptAt: at(30) })
    expect([statusOf(push), statusOf(discord), statusOf(other), statusOf(sent)]).toEqual(['waiting', 'pending', 'pending', 'sent'])
    expect(await wait(deps, { userId: userId + 1, matchId: 70, until: at(30) })).toBe(0)
  })

  transition('release', 'a waiting row goes pending, due now; a row that no longer waits is left', async () => {
    const rows = oneOfEach()
    expect(await release(deps, rows.waiting, at(4))).toBe(1)
    expect(get(rows.waiting)).toMatchObject({ status: 'pending', nextAttemptAt: at(4) })
    for (const s of OUTBOX_STATUSES.filter((s) => s !== 'waiting')) expect(await release(deps, rows[s], at(4))).toBe(0)
    untouched(rows, ['waiting'])
  })

  transition('skip', 'a waiting row is skipped with the reason; a row that no longer waits is left', async () => {
    const rows = oneOfEach()
    expect(await skip(deps, rows.waiting, 'not sent: the post was removed before delivery')).toBe(1)
    expect(get(rows.waiting)).toMatchObject({ status: 'skipped', lastError: 'not sent: the post was removed before delivery' })
    for (const s of OUTBOX_STATUSES.filter((s) => s !== 'waiting')) expect(await skip(deps, rows[s], 'x')).toBe(0)
    untouched(rows, ['waiting'])
  })

  transition('cancel', "the matches' unsent email and push rows are skipped; sent, failed, other matches and other channels are not", async () => {
    const rows = Object.fromEntries(OUTBOX_STATUSES.map((s) => [s, row(s, { key: `match:5:email:${s}` })])) as Record<OutboxStatus, number>
    const push = row('held', { channel: 'push', key: 'match:6:push:1' })
    const webhook = row('pending', { channel: 'webhook', key: 'match:5:webhook:1' })
    const neighbour = row('pending', { key: 'match:50:email' })
    expect(await cancel(deps, [5, 6], 'gone')).toBe(4)
    expect(OUTBOX_STATUSES.map((s) => statusOf(rows[s]))).toEqual(['skipped', 'sending', 'sent', 'failed', 'skipped', 'skipped', 'skipped'])
    expect(get(rows.pending)!.lastError).toBe('gone')
    expect([statusOf(push), statusOf(webhook), statusOf(neighbour)]).toEqual(['skipped', 'pending', 'pending'])
    expect(await cancel(deps, [], 'gone')).toBe(0)
  })

  transition('fold', 'held rows a summary carried are sent with the note; for a user no longer active, failed', async () => {
    const rows = oneOfEach()
    const a = row('held')
    const b = row('held')
    expect(await fold(deps, [a, rows.pending], { delivered: true, at: at(9), note: 'in the summary' })).toBe(1)
    expect(get(a)).toMatchObject({ status: 'sent', sentAt: at(9), lastError: 'in the summary' })
    expect(await fold(deps, [b], { delivered: false, at: at(9), note: 'user not active' })).toBe(1)
    expect(get(b)).toMatchObject({ status: 'failed', sentAt: null, lastError: 'user not active' })
    untouched(rows, [])
  })

  transition('prune', 'sent rows sent before the date are deleted; the rest stay', async () => {
    const rows = oneOfEach()
    const old = row('sent', { sentAt: -100 })
    const recent = row('sent', { sentAt: 100 })
    expect(await prune(deps, T0)).toBe(1)
    expect([statusOf(old), statusOf(recent)]).toEqual(['gone', 'sent'])
    untouched(rows, [])
  })

  test('every transition of src/outbox/status.ts has its test here', () => {
    expect([...tested].sort() as string[]).toEqual(Object.keys(OUTBOX_TRANSITIONS).sort())
  })
})

test('cancel: a post with over a thousand matches has every one cancelled (several statements)', async () => {
  const ids = Array.from({ length: 1200 }, (_, i) => 1000 + i)
  const rows = ids.map((id) => row('pending', { key: `match:${id}:email` }))
  const other = row('pending', { key: 'match:999:email' })
  expect(await cancel(deps, ids, 'gone')).toBe(1200)
  expect(new Set(rows.map(statusOf))).toEqual(new Set(['skipped']))
  expect(statusOf(other)).toBe('pending')
})

describe('the reads the transitions’ callers use', () => {
  test('dueWaiting: waiting rows of matches whose wait is over, oldest due first, with the match id from the key', async () => {
    const late = row('waiting', { key: 'match:4:email', due: -5 })
    const first = row('waiting', { key: 'match:3:push:1', channel: 'push', due: -9 })
    row('waiting', { key: 'match:5:email', due: 5 }) // not due
    row('waiting', { key: 'digest:1:5' }) // not a match's row
    row('pending', { key: 'match:6:email' })
    expect(await dueWaiting(deps, T0)).toEqual([
      { id: first, matchId: 3, dueAt: at(-9).getTime() },
      { id: late, matchId: 4, dueAt: at(-5).getTime() },
    ])
  })

  test('dueHeld: held rows due, by id', async () => {
    const a = row('held', { due: -1 })
    row('held', { due: 60 })
    const b = row('held', { due: -100 })
    expect((await dueHeld(deps, T0)).map((r) => r.id)).toEqual([a, b])
  })

  test('matchIdOfKey reads a match row’s key and nothing else', () => {
    expect([
      matchIdOfKey('match:42:email'),
      matchIdOfKey('match:42:push:7'),
      matchIdOfKey('digest:1:2'),
      matchIdOfKey('match:x:email'),
      matchIdOfKey(null),
    ]).toEqual([42, 42, null, null, null])
  })

  test('rowWithKey: a subquery on a key the outer query computes', () => {
    row('pending', { key: 'match:8:email' })
    const emailed = (id: number) =>
      opened.db
        .select({ n: sql<number>`1` })
        .from(users)
        .where(notExists(rowWithKey(deps, sql`'match:' || ${id} || ':email'`)))
        .all().length === 0
    expect([emailed(8), emailed(9)]).toEqual([true, false])
  })
})
