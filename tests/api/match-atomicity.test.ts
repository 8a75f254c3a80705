// Sequences that were atomic because they were synchronous, now that the runner and the terms
// service await their statements (docs/atomicity-audit.md A1, A2, A3): each keeps its check and its
// writes in one transaction.
import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { asAsync } from '../../src/db/async-sqlite'
import { matches, searchTerms } from '../../src/db/schema'
import { rowCount } from '../db-reads'
import { TERM_LIMIT } from '../../src/access/rules'
import { storePosts } from '../../src/forums/store'
import { findHits, recordMatches } from '../../src/matches/runner'
import { addTerm } from '../../src/terms/service'
import { importTerms } from '../../src/terms/transfer'
import { forumPost } from '../fakes/forum-post'
import { createUserWithSession, makeDeps, testClock, type TestDeps } from '../helpers'

const FULL = { role: 'product+gd' as const, subscriptionStatus: 'active', accessExpiresAt: null }
let deps: TestDeps
let clock: ReturnType<typeof testClock>
beforeEach(async () => {
  clock = testClock(1_763_640_000_000)
  deps = await makeDeps({}, clock)
})
afterEach(() => deps.close())

const termCount = (userId: number) => rowCount(deps, searchTerms, eq(searchTerms.userId, userId))

describe('A1: a term deleted between finding the hits and storing them', () => {
  test("drops that term's hits only: the other users' matches of the batch are stored", async () => {
    const a = await createUserWithSession(deps)
    const b = await createUserWithSession(deps)
    const { term: gone } = await addTerm(deps, a.userId, FULL, 'wts', 'widget')
    await addTerm(deps, b.userId, FULL, 'wts', 'widget')
    clock.advance(60_000)
    const stored = await storePosts(deps, [forumPost('[WTS] Widget - $100', { now: clock.now().getTime(), ageMs: 1000 })])
    const hits = await findHits(deps, stored)
    expect(hits.map((h) => h.userId).toSorted((x, y) => x - y)).toEqual([a.userId, b.userId].toSorted((x, y) => x - y))
    // the user deletes the term (another request) before the runner's transaction
    await asAsync(deps.db).delete(searchTerms).where(eq(searchTerms.id, gone.id))
    const result = await recordMatches(deps, hits, 'live')
    expect(result.created.map((c) => c.userId)).toEqual([b.userId])
    expect(await asAsync(deps.db).select({ userId: matches.userId }).from(matches)).toEqual([{ userId: b.userId }])
  })
})

describe('A2/A3: the plan limit holds under saves at the same time', () => {
  test('two terms saved at once at one below the limit: one is saved, the other refused with TERM_LIMIT', async () => {
    const u = await createUserWithSession(deps)
    for (let i = 0; i < TERM_LIMIT - 1; i++) await addTerm(deps, u.userId, FULL, 'wts', `term ${i}`)
    const both = await Promise.allSettled([addTerm(deps, u.userId, FULL, 'wts', 'alpha'), addTerm(deps, u.userId, FULL, 'wts', 'bravo')])
    expect(both.map((r) => r.status).toSorted()).toEqual(['fulfilled', 'rejected'])
    const refused = both.find((r) => r.status === 'rejected')
    expect((refused as PromiseRejectedResult).reason).toMatchObject({ code: 'TERM_LIMIT' })
    expect(await termCount(u.userId)).toBe(TERM_LIMIT)
  })

  test('an import and a save at once: together they add no more terms than the limit leaves', async () => {
    const u = await createUserWithSession(deps)
    for (let i = 0; i < TERM_LIMIT - 2; i++) await addTerm(deps, u.userId, FULL, 'wts', `term ${i}`)
    const body = JSON.stringify({
      terms: [
        { category: 'wts', term: 'alpha' },
        { category: 'wts', term: 'bravo' },
      ],
    })
    const [imported, saved] = await Promise.allSettled([
      importTerms(deps, u.userId, FULL, { format: 'json', body, dryRun: false }),
      addTerm(deps, u.userId, FULL, 'wts', 'charlie'),
    ])
    const added = (imported.status === 'fulfilled' ? imported.value.summary.add : 0) + (saved.status === 'fulfilled' ? 1 : 0)
    expect(added).toBe(2)
    expect(await termCount(u.userId)).toBe(TERM_LIMIT)
  })
})
