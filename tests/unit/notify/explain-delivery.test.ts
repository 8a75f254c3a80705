// Every channel outcome of "Why didn't I get an alert?" (src/notify/explain-delivery.ts): one table
// row per outcome, from the facts the dispatcher, the outbox and the digest leave behind.
import { describe, expect, test } from 'bun:test'
import { DEFAULT_DELIVERY, MUTED_FOREVER, type TermSettings } from '../../../src/notify/delivery'
import { channelOutcomes, formatTime, type DeliveryFacts, type OutboxFact } from '../../../src/notify/explain-delivery'
import { SUMMARY_NOTE } from '../../../src/notify/quiet-summary'

const T = Date.UTC(2026, 10, 24, 5, 0, 0)
const at = (ms: number) => formatTime(ms, 'UTC')
const term = (over: Partial<TermSettings['delivery']> = {}, rest: Partial<TermSettings> = {}): TermSettings => ({
  delivery: { ...DEFAULT_DELIVERY, ...over },
  mutedUntil: null,
  alwaysNotify: false,
  ...rest,
})
const row = (dedupeKey: string, over: Partial<OutboxFact> = {}): OutboxFact => ({
  channel: dedupeKey.split(':')[2]!,
  dedupeKey,
  status: 'sent',
  attempts: 1,
  nextAttemptAt: T,
  lastError: null,
  sentAt: T + 2000,
  ...over,
})
function facts(over: Partial<DeliveryFacts> = {}): DeliveryFacts {
  return {
    now: T + 60_000,
    timeZone: 'UTC',
    match: { id: 7, source: 'live', isNew: true, matchedAt: T, postCreatedAt: T - 6000 },
    postState: 'open',
    terms: [term()],
    emailFrequency: 'instant',
    webPushEnabled: true,
    gates: { email: true, push: true, external: true },
    devices: 2,
    endpoints: [],
    rows: [],
    digest: null,
    digestIntervalMinutes: 15,
    socketAt: T + 40,
    noAlert: null,
    ...over,
  }
}
const text = (f: DeliveryFacts, channel: string) =>
  channelOutcomes(f)
    .filter((o) => o.channel === channel)
    .map((o) => o.text)

describe('email', () => {
  const cases: [string, Partial<DeliveryFacts>, string][] = [
    ['sent', { rows: [row('match:7:email')] }, `sent at ${at(T + 2000)}`],
    ['queued', { rows: [row('match:7:email', { status: 'pending', attempts: 0, sentAt: null })] }, 'waiting in the queue'],
    [
      'retrying',
      { rows: [row('match:7:email', { status: 'pending', attempts: 3, nextAttemptAt: T + 40_000, lastError: 'connect ECONNREFUSED', sentAt: null })] },
      `waiting in the queue (retry 3 at ${at(T + 40_000)}; last error: connect ECONNREFUSED)`,
    ],
    ['failed', { rows: [row('match:7:email', { status: 'failed', lastError: '550 mailbox unavailable', sentAt: null })] }, 'failed: 550 mailbox unavailable'],
    [
      'held for quiet hours',
      { rows: [row('match:7:email', { status: 'held', nextAttemptAt: T + 3600_000, sentAt: null })] },
      `held for quiet hours until ${at(T + 3600_000)}`,
    ],
    ['sent in the summary', { rows: [row('match:7:email', { lastError: SUMMARY_NOTE })] }, `sent in the quiet-hours summary at ${at(T + 2000)}`],
    [
      'waiting for the hold',
      { rows: [row('match:7:email', { status: 'waiting', nextAttemptAt: T + 30_000, sentAt: null })] },
      `waiting for a re-check of the post (your wait before email and push) until ${at(T + 30_000)}`,
    ],
    [
      'skipped, post removed',
      { rows: [row('match:7:email', { status: 'skipped', lastError: 'not sent: the post was removed before delivery', sentAt: null })] },
      'skipped: the post was removed',
    ],
    ['in a digest', { emailFrequency: 'batched', digest: { at: T + 900_000, status: 'sent' } }, `in the digest of ${at(T + 900_000)}`],
    ['waiting for the digest', { emailFrequency: 'batched' }, 'waiting for the next digest (every 15 min)'],
    ['left out of the digest', { emailFrequency: 'batched', postState: 'sold' }, 'left out of the digest: the post is sold'],
    ['email frequency off', { emailFrequency: 'none' }, 'email frequency off'],
    ['term email off', { terms: [term({ email: 'off' })] }, 'term set to email off'],
    ['muted', { terms: [term({}, { mutedUntil: new Date(T + 3600_000) })] }, `term muted until ${at(T + 3600_000)}`],
    ['muted until unmuted', { terms: [term({}, { mutedUntil: new Date(MUTED_FOREVER) })] }, 'term muted until you unmute it'],
    ['plan without email', { gates: { email: false, push: false, external: false } }, 'plan without email'],
    ['never alerted', { noAlert: 'the post was created before you added this term' }, 'no alert: the post was created before you added this term'],
  ]
  for (const [name, over, want] of cases) test(name, () => expect(text(facts(over), 'email')).toEqual([want]))
})

describe('push', () => {
  const cases: [string, Partial<DeliveryFacts>, string[]][] = [
    ['sent to 2 devices', { rows: [row('match:7:push:1'), row('match:7:push:2', { sentAt: T + 3000 })] }, [`sent to 2 devices at ${at(T + 3000)}`]],
    [
      'one sent, one failed',
      { rows: [row('match:7:push:1'), row('match:7:push:2', { status: 'failed', lastError: '410 Gone', sentAt: null })] },
      [`sent to 1 device at ${at(T + 2000)}`, 'failed: 410 Gone (1 device)'],
    ],
    [
      'held',
      { rows: [row('match:7:push:1', { status: 'held', nextAttemptAt: T + 7200_000, sentAt: null })] },
      [`held for quiet hours until ${at(T + 7200_000)} (1 device)`],
    ],
    ['no device', { devices: 0 }, ['push not enabled on any device']],
    ['push off in settings', { webPushEnabled: false }, ['push not enabled on any device']],
    ['term push off', { terms: [term({ push: false })] }, ['term set to push off']],
    ['muted', { terms: [term({}, { mutedUntil: new Date(T + 60_000) })] }, [`term muted until ${at(T + 60_000)}`]],
    ['plan without push', { gates: { email: true, push: false, external: true } }, ['plan without push']],
  ]
  for (const [name, over, want] of cases) test(name, () => expect(text(facts(over), 'push')).toEqual(want))
})

describe('in-app and external channels', () => {
  test('in-app: shown on an open tab, or in the list', () => {
    expect(text(facts(), 'in-app')).toEqual([`shown at ${at(T + 40)}`])
    expect(text(facts({ socketAt: null }), 'in-app')).toEqual([`in your match list since ${at(T)} (no Dibs tab was open)`])
  })
  const hook = { id: 3, kind: 'webhook' as const, name: 'home', createdAt: T - 1 }
  const ntfy = { id: 4, kind: 'ntfy' as const, name: '', createdAt: T - 1 }
  const discord = { id: 5, kind: 'discord' as const, name: 'room', createdAt: T - 1 }
  test('each channel by its row or the reason it has none', () => {
    const f = facts({
      endpoints: [hook, ntfy, discord],
      terms: [term({ endpoints: { '5': false } })],
      rows: [row('match:7:webhook:3'), row('match:7:ntfy:4', { status: 'failed', lastError: '401: unauthorized', sentAt: null })],
    })
    const ext = channelOutcomes(f).filter((o) => ['webhook', 'ntfy', 'discord'].includes(o.channel))
    expect(ext.map((o) => [o.label, o.status, o.text])).toEqual([
      ['Webhook "home"', 'sent', `sent at ${at(T + 2000)}`],
      ['ntfy', 'failed', 'failed: 401: unauthorized'],
      ['Discord "room"', 'off', 'term set to Discord off'],
    ])
  })
  test('a channel added after the match, a plan without external channels', () => {
    expect(text(facts({ endpoints: [{ ...hook, createdAt: T + 1 }] }), 'webhook')).toEqual(['channel added after this match'])
    expect(text(facts({ endpoints: [hook], gates: { email: true, push: true, external: false } }), 'webhook')).toEqual([
      'plan without alerts on other channels',
    ])
  })
})
