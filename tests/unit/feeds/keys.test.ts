// docs/atomicity-audit.md C8: the first look at the feed addresses makes the secret once, even when
// two looks run at once (the page and a prefetch): both show the same addresses, and they work.
import { afterEach, expect, test } from 'bun:test'
import { feedOwner, feedSecret } from '../../../src/feeds/keys'
import { makeDeps, testClock, type TestDeps } from '../../helpers'

let deps: TestDeps | null = null
afterEach(() => {
  deps?.close()
  deps = null
})

test('two first looks at once answer the same secret, and it finds its user', async () => {
  const d = (deps = makeDeps({}, testClock(Date.UTC(2026, 5, 1, 12, 0))))
  d.sqlite.run('INSERT INTO users (id, email) VALUES (1, ?)', ['u1@example.com'])
  const [a, b] = await Promise.all([feedSecret(d, 1), feedSecret(d, 1)])
  expect(a).toBe(b)
  expect((await feedOwner(d, a))?.userId).toBe(1)
  expect(await feedSecret(d, 1)).toBe(a)
})
