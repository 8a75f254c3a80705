// The outbox worker is woken for a live match's alerts once the dispatcher's transaction has committed them
// (src/notify/dispatcher.ts dispatchBatch). On PostgreSQL a statement outside that transaction runs on another
// connection: a wake from inside it (enqueue's own) finds nothing yet, so without the wake after the commit the
// alerts waited for the outbox job's next poll.
import { afterEach, beforeEach, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { outbox } from '../../src/db/schema'
import { storePosts } from '../../src/forums/store'
import { matchPosts } from '../../src/matches/runner'
import { addTerm } from '../../src/terms/service'
import { rowCount } from '../db-reads'
import { forumPost } from '../fakes/forum-post'
import { createUserWithSession, makeDeps, testClock, type TestDeps } from '../helpers'

let deps: TestDeps
let clock: ReturnType<typeof testClock>
beforeEach(async () => {
  clock = testClock(1_763_640_000_000)
  deps = await makeDeps({}, clock)
})
afterEach(() => deps.close())

test("the last wake of a dispatch finds the match's email queued", async () => {
  const u = await createUserWithSession(deps, { emailFrequency: 'instant' })
  await addTerm(deps, u.userId, { role: 'product+gd', subscriptionStatus: 'active', accessExpiresAt: null }, 'wts', 'widget')
  clock.advance(60_000) // the post comes after the term: it alerts
  const stored = await storePosts(deps, [forumPost('[WTS] Widget - $100', { now: clock.now().getTime(), ageMs: 1000 })])
  const [created] = (await matchPosts(deps, stored, 'live')).created
  // what the worker's claim would see at each wake, read the moment the wake is emitted
  const seen: Promise<number>[] = []
  deps.bus.on('outbox.queued', () => void seen.push(rowCount(deps, outbox, eq(outbox.status, 'pending'))))
  deps.dispatcher.add({ userId: u.userId, match: created!.item, notify: true })
  await deps.dispatcher.flush()
  const found = await Promise.all(seen)
  expect(found.length).toBeGreaterThan(0)
  expect(found.at(-1)).toBe(1)
})
