// What crosses nodes (src/cluster/fanout-refs.ts): each crossing event's ref holds ids (and the few
// words that are not stored), never its body; payloads read back only when they are ours.
import { describe, expect, test } from 'bun:test'
import { decode, encode, FANOUT_EVENTS, MAX_PAYLOAD_BYTES, refOf, type FanoutEventName } from '../../../src/cluster/fanout-refs'
import { SOCKET_EVENTS, type BusEvents, type FeedItem, type MatchItem, type ScanMetric } from '../../../src/contract/events'

const cases: { [K in FanoutEventName]: { data: BusEvents[K]; ref: unknown } } = {
  'post.new': { data: { post: { id: 5, title: 'WTS body' } as FeedItem }, ref: { postId: 5 } },
  'match.new': { data: { userId: 1, match: { id: 9, title: 'WTS body' } as MatchItem, notify: true }, ref: { userId: 1, matchId: 9 } },
  'match.updated': { data: { userId: 1, ids: [9, 10], change: 'archived' }, ref: { userId: 1, ids: [9, 10], change: 'archived' } },
  unread: { data: { userId: 1, counts: { wts: 3, wtb: 0, gd: 0 } }, ref: { userId: 1 } },
  'access.changed': { data: { userId: 1 }, ref: { userId: 1 } },
  'settings.changed': { data: { name: 'is_emergency_paused', active: true }, ref: { name: 'is_emergency_paused' } },
  'scan.metric': { data: { metric: { id: 44, error: 'body' } as ScanMetric }, ref: { metricId: 44 } },
  'scan.next': { data: { at: '2026-01-01T00:00:00.000Z' }, ref: { at: '2026-01-01T00:00:00.000Z' } },
  'post.updated': {
    data: { post: { postId: 5, redditId: 't3_x', state: 'sold', stateChangedAt: null, price: 1 }, userIds: [1, 2, 3] },
    ref: { postId: 5 },
  },
  'sessions.revoked': { data: { userId: 1 }, ref: { userId: 1 } },
}

describe('fan-out refs', () => {
  test('every socket event and sessions.revoked cross nodes', () => {
    expect([...FANOUT_EVENTS].sort()).toEqual([...SOCKET_EVENTS, 'sessions.revoked' as const].sort())
    expect(Object.keys(cases).sort()).toEqual([...FANOUT_EVENTS].sort())
  })

  for (const name of Object.keys(cases) as FanoutEventName[])
    test(`${name} is announced by ${JSON.stringify(cases[name].ref)}`, () => {
      const ref = refOf(name, cases[name].data as never)
      expect(ref).toEqual(cases[name].ref as never)
      const [payload] = encode('n1', name, ref)
      expect(decode(payload!)).toEqual({ o: 'n1', e: name, r: ref })
    })

  test('payloads that are not ours are ignored: not JSON, unknown events, missing fields', () => {
    for (const p of ['', 'hello', '[]', 'null', '{"o":"n1","e":"outbox.queued","r":{}}', '{"o":"n1","e":"unread"}', '{"e":"unread","r":{"userId":1}}'])
      expect(decode(p)).toBeNull()
  })

  test('a ref that cannot be split and is over the limit throws rather than sending a notice PostgreSQL refuses', () => {
    expect(() => encode('n1', 'scan.next', { at: 'x'.repeat(MAX_PAYLOAD_BYTES) })).toThrow('over PostgreSQL')
  })
})
