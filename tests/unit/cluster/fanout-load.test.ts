// Another node's events read back (src/cluster/fanout-load.ts): every crossing event of a real scan,
// a settings switch and a re-checked post, announced by its ref (src/cluster/fanout-refs.ts), loads
// from the database as the same body the node that emitted it had — match.new with notify false (the
// emitting node queued its alerts) — and an event whose row is gone loads as null.
import { afterEach, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { fanoutLoader } from '../../../src/cluster/fanout-load'
import { FANOUT_EVENTS, refOf, type FanoutEventName } from '../../../src/cluster/fanout-refs'
import type { BusEvents } from '../../../src/contract/events'
import { asAsync } from '../../../src/db/async-sqlite'
import { matches, posts } from '../../../src/db/schema'
import { addTerm } from '../../../src/terms/service'
import { runScan } from '../../../src/scanner/scan'
import { setSetting } from '../../../src/settings/service'
import { usersMatchedOn } from '../../../src/matches/store'
import { fakeRedditClient, startFakeReddit, type FakeReddit } from '../../fakes/reddit'
import { createUserWithSession, makeDeps, testClock, type TestDeps } from '../../helpers'

let fake: FakeReddit | null = null
let deps: TestDeps | null = null
afterEach(async () => {
  await fake?.stop()
  deps?.close()
})

test('every crossing event loads back as the body its node emitted', async () => {
  const clock = testClock(1_763_640_000_000)
  fake = await startFakeReddit({ now: () => clock.now().getTime() })
  const d = (deps = await makeDeps({}, clock))
  const emitted: { name: FanoutEventName; data: object }[] = []
  for (const name of FANOUT_EVENTS) d.bus.on(name, (data) => void emitted.push({ name, data: data as object }))
  const user = await createUserWithSession(d, { role: 'product+gd' })
  await addTerm(d, user.userId, { role: 'product+gd', subscriptionStatus: 'active', accessExpiresAt: null }, 'wts', 'rmr')
  clock.advance(2000)
  fake.publish({ title: '[WTS] Trijicon RMR Type 2 RM06 - $400', subreddit: 'GunAccessoriesForSale', author: 'seller_1' })
  fake.publish({ title: '[Optic] Holosun 507C - $279', subreddit: 'gundeals', url: 'https://shop.example.com/507c' })
  const client = fakeRedditClient(fake, { clock, subreddits: ['GunAccessoriesForSale', 'gundeals'], timeoutMs: 2000 })
  expect((await runScan(d, client)).status).toBe('success')
  const load = fanoutLoader(d)
  /** the events emitted so far, each loaded back by its ref (the database as it is now) */
  const checked = new Set<string>()
  const loadBack = async () => {
    for (const { name, data } of emitted.splice(0)) {
      const back = await load(name, refOf(name, data as BusEvents[typeof name]))
      const expected = name === 'match.new' ? { ...data, notify: false } : data
      expect({ name, back }).toEqual({ name, back: expected as never })
      checked.add(name)
    }
  }
  await loadBack()
  await setSetting(d, 'is_emergency_paused', true)
  // a re-checked post: its state changed, the users with a match on it are told
  const [post] = await asAsync(d.db).select().from(posts).where(eq(posts.title, '[WTS] Trijicon RMR Type 2 RM06 - $400'))
  await asAsync(d.db).update(posts).set({ state: 'sold', stateChangedAt: clock.now(), price: 350 }).where(eq(posts.id, post!.id))
  d.bus.emit('post.updated', {
    post: { postId: post!.id, redditId: post!.redditId, state: 'sold', stateChangedAt: clock.now().toISOString(), price: 350 },
    userIds: await usersMatchedOn(d, post!.id),
  })
  d.bus.emit('match.updated', { userId: user.userId, ids: [1, 2], change: 'read' })
  d.bus.emit('sessions.revoked', { userId: user.userId })

  await loadBack()
  expect([...checked].sort()).toEqual([
    'match.new',
    'match.updated',
    'post.new',
    'post.updated',
    'scan.metric',
    'scan.next',
    'sessions.revoked',
    'settings.changed',
    'unread',
  ])
})

test('an event whose row is gone loads as null', async () => {
  const d = (deps = await makeDeps())
  const load = fanoutLoader(d)
  expect(await load('post.new', { postId: 404 })).toBeNull()
  expect(await load('post.updated', { postId: 404 })).toBeNull()
  expect(await load('scan.metric', { metricId: 404 })).toBeNull()
  expect(await load('match.new', { userId: 1, matchId: 404 })).toBeNull()
  expect(await asAsync(d.db).select().from(matches)).toEqual([])
})
