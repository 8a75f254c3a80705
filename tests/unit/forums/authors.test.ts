// The reddit_authors cache as the match pipeline reads it (src/forums/authors.ts): one batch read of a scan's
// authors, by lowercased name, found accounts only; and the single read `dibs explain` uses.
import { afterEach, expect, test } from 'bun:test'
import { authorAbout, authorsAbout, recordAbout } from '../../../src/forums/authors'
import { makeDeps, type TestDeps } from '../../helpers'

let deps: TestDeps | null = null
afterEach(() => {
  deps?.close()
  deps = null
})

test('a batch of authors: found accounts by lowercased name, whatever the case asked; missing and unknown left out', async () => {
  const d = (deps = makeDeps())
  await recordAbout(d, 'OldSeller', { status: 'found', accountCreatedAt: 1000, karma: 50 }, 5000)
  await recordAbout(d, 'gone', { status: 'missing' }, 5000)
  const got = await authorsAbout(d, ['oldseller', 'OLDSELLER', 'gone', 'nobody', '', null, undefined])
  expect([...got]).toEqual([['oldseller', { accountCreatedAt: 1000, karma: 50 }]])
  expect(await authorAbout(d, 'OldSeller')).toEqual({ accountCreatedAt: 1000, karma: 50 })
  expect(await authorAbout(d, 'gone')).toBeNull()
  expect(await authorAbout(d, '')).toBeNull()
})

test('more authors than one IN list takes (500): every one is read', async () => {
  const d = (deps = makeDeps())
  const names = Array.from({ length: 1201 }, (_, i) => `seller${i}`)
  for (const [i, name] of names.entries()) if (i % 100 === 0) await recordAbout(d, name, { status: 'found', accountCreatedAt: i, karma: i }, 5000)
  const got = await authorsAbout(
    d,
    names.map((n) => n.toUpperCase()),
  )
  expect(got.size).toBe(13)
  expect(got.get('seller1200')).toEqual({ accountCreatedAt: 1200, karma: 1200 })
})
