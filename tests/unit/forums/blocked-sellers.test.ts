// The admin's blocked sellers (src/forums/blocked-sellers.ts): adding a name tells whether it is new to the list,
// and two admins adding one name at once are not both told so (docs/atomicity-audit.md D3).
import { afterEach, expect, test } from 'bun:test'
import { blockedSeller, blockedSellerSet, blockSeller, listBlockedSellers, unblockSeller } from '../../../src/forums/blocked-sellers'
import { makeDeps, type TestDeps } from '../../helpers'

let deps: TestDeps | null = null
afterEach(() => {
  deps?.close()
  deps = null
})

test('add, re-word, read and take off a seller', async () => {
  const d = (deps = makeDeps())
  expect(await blockSeller(d, 'scammer', 'fake photos', null, 1000)).toBe(true)
  expect(await blockSeller(d, 'scammer', 'no shipment', null, 2000)).toBe(false)
  expect(await listBlockedSellers(d)).toEqual([{ name: 'scammer', reason: 'no shipment', createdAt: new Date(1000).toISOString() }])
  expect(await blockedSeller(d, 'u/Scammer')).toMatchObject({ name: 'scammer', reason: 'no shipment' })
  expect(await blockedSellerSet(d)).toEqual(new Set(['scammer']))
  expect(await unblockSeller(d, 'scammer')).toBe(true)
  expect(await unblockSeller(d, 'scammer')).toBe(false)
  expect(await blockedSeller(d, 'scammer')).toBeNull()
})

test('two admins adding one name at once: only one is told it was new (D3)', async () => {
  const d = (deps = makeDeps())
  const added = await Promise.all([blockSeller(d, 'twice', 'a', null, 1000), blockSeller(d, 'twice', 'b', null, 1000)])
  expect(added.filter(Boolean)).toHaveLength(1)
  expect(await listBlockedSellers(d)).toHaveLength(1)
})
