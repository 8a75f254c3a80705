// The run-time reads issue 29's phase 2 took off SQLite's synchronous handle, run the same on every handle an owner
// may hold (SQLite, asyncSqlite, PostgreSQL): the authors' accounts, a listing's posts and prices, the post stats of
// the forum activity, the restore point, the migrations /readyz counts; and what is SQLite's only (the page limit of
// /healthz, the Database page's figures) asked where deps.sqlite is null.
import { describe, expect, test } from 'bun:test'
import { databaseStats } from '../../../src/admin/database/view'
import { engineOf, type AsyncDb } from '../../../src/db/async-db'
import type { Db } from '../../../src/db/client'
import { appliedMigrationTagsOf } from '../../../src/db/inspect'
import { migrations } from '../../../src/db/migrations'
import { migrations as pgMigrations } from '../../../src/db/migrations-pg'
import { posts } from '../../../src/db/schema'
import { authorsAbout, recordAbout } from '../../../src/forums/authors'
import { listingPostIds, listingsOf, postsOfListings, priceBefore } from '../../../src/forums/listings'
import { latestPostTimes, newestPostAt, oldestPostAt, subredditsByNewestPost } from '../../../src/forums/stats'
import { storageState } from '../../../src/health'
import { recordRestorePoint, restorePointAt } from '../../../src/settings/restore-point'
import { makeDeps } from '../../helpers'
import { useDbHandles } from '../db/handles'

const { handles } = useDbHandles('reads')
const made = makeDeps()
const config = made.config
made.close()

async function withPosts(db: Db | AsyncDb) {
  const row = (id: number, subreddit: string, createdAt: number, extra: Partial<typeof posts.$inferInsert> = {}) => ({
    id,
    redditId: `p${id}`,
    forum: 'product',
    subreddit,
    title: '[USA-CA] [H] GPU [W] Cash',
    url: `https://www.reddit.com/${id}`,
    createdAt: new Date(createdAt),
    ingestedAt: new Date(createdAt),
    ...extra,
  })
  await (db as AsyncDb)
    .insert(posts)
    .values([
      row(1, 'hardwareswap', 100, { price: 500 }),
      row(2, 'HardwareSwap', 300, { price: 450, listingId: 1 }),
      row(3, 'buildapcsales', 200),
      row(4, 'hardwareswap', 300, { price: 400, listingId: 1 }),
    ])
}

describe.each(handles)('on %s', (_name, open) => {
  test("authors' accounts: by lowercased name, found only", async () => {
    const db = await open()
    await recordAbout({ db }, 'OldSeller', { status: 'found', accountCreatedAt: 1000, karma: 50 }, 5000)
    await recordAbout({ db }, 'gone', { status: 'missing' }, 5000)
    expect([...(await authorsAbout({ db }, ['OLDSELLER', 'gone', 'nobody']))]).toEqual([['oldseller', { accountCreatedAt: 1000, karma: 50 }]])
  })

  test("a listing's posts, its last price before a post, the listings of posts and their posts", async () => {
    const db = await open()
    await withPosts(db)
    expect((await listingPostIds({ db }, 1)).sort((a, b) => a - b)).toEqual([1, 2, 4])
    expect(await priceBefore({ db }, { id: 4, listingId: 1, createdAt: 300 })).toBe(450)
    expect(await priceBefore({ db }, { id: 2, listingId: 1, createdAt: 300 })).toBe(500)
    expect(await priceBefore({ db }, { id: 1, listingId: 1, createdAt: 100 })).toBeNull()
    expect([...(await listingsOf({ db }, [1, 2, 3, 99]))].sort((a, b) => a[0] - b[0])).toEqual([
      [1, 1],
      [2, 1],
      [3, 3],
    ])
    const byListing = await postsOfListings({ db }, [1, 3])
    expect(byListing.get(1)).toEqual([
      { id: 1, listing: 1, created_at: 100, price: 500 },
      { id: 2, listing: 1, created_at: 300, price: 450 },
      { id: 4, listing: 1, created_at: 300, price: 400 },
    ])
    expect(byListing.get(3)).toEqual([{ id: 3, listing: 3, created_at: 200, price: null }])
  })

  test('post stats: oldest and newest, subreddits one spelling each (the newest), latest times of one in any case', async () => {
    const db = await open()
    expect(await oldestPostAt({ db })).toBeNull()
    expect(await newestPostAt({ db })).toBeNull()
    expect(await subredditsByNewestPost({ db })).toEqual([])
    await withPosts(db)
    expect(await oldestPostAt({ db })).toBe(100)
    expect(await newestPostAt({ db })).toBe(300)
    const subs = await subredditsByNewestPost({ db })
    expect(subs.map((s) => s.toLowerCase())).toEqual(['hardwareswap', 'buildapcsales'])
    expect(await latestPostTimes({ db }, 'HARDWARESWAP', 2)).toEqual([300, 300])
    expect(await latestPostTimes({ db }, 'hardwareswap', 20)).toEqual([300, 300, 100])
  })

  test('the restore point: recorded, only moved forward', async () => {
    const db = await open()
    expect(await restorePointAt({ db })).toBeNull()
    expect(await recordRestorePoint({ db }, { at: 2000, restoredAt: 5000, how: 'dibs restore' })).toBe(true)
    expect(await recordRestorePoint({ db }, { at: 1000, restoredAt: 6000, how: 'detected' })).toBe(false)
    expect(await restorePointAt({ db })).toBe(2000)
  })

  test("the migrations /readyz counts: every embedded tag of the engine's", async () => {
    const db = await open()
    const embedded = engineOf(db) === 'postgres' ? pgMigrations : migrations
    expect((await appliedMigrationTagsOf(db)).sort()).toEqual(embedded.map((m) => m.tag).sort())
  })
})

test('PostgreSQL, no SQLite handle: /healthz storage is read without a PRAGMA; the Database page says the engine', async () => {
  const db = await handles.find(([name]) => name === 'PostgreSQL')![1]()
  const deps = { db: db as Db, sqlite: null as never, config }
  expect(storageState(deps)).toBe('ok')
  const stats = await databaseStats(deps)
  expect(stats).toMatchObject({ engine: 'postgres', tables: [], pages: 0 })
})
