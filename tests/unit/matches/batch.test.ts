// Batch matching (`dibs match`) on an index nothing has loaded yet: a CLI process builds its term index lazily
// (src/commands.ts), so the batch files the saved terms before it counts or matches them.
import { afterEach, expect, test } from 'bun:test'
import { runBatchMatch } from '../../../src/matches/batch'
import { MatchingService } from '../../../src/matches/matcher'
import { setSetting } from '../../../src/settings/service'
import { addTerm } from '../../../src/terms/service'
import { createUserWithSession, makeDeps, type TestDeps } from '../../helpers'

const FULL = { role: 'product+gd' as const, subscriptionStatus: 'active', accessExpiresAt: null }
let deps: TestDeps | null = null
afterEach(() => {
  deps?.close()
  deps = null
})

test('paused: the batch reports the saved terms of an index it had to load', async () => {
  const d = (deps = await makeDeps())
  const { userId } = await createUserWithSession(d)
  await addTerm(d, userId, FULL, 'wts', 'aimpoint')
  await addTerm(d, userId, FULL, 'wtb', 'holster')
  await setSetting(d, 'is_emergency_paused', true)
  const r = await runBatchMatch({ ...d, matcher: new MatchingService(d) })
  expect(r).toMatchObject({ skipped: 'paused', total_search_terms: 2 })
})
