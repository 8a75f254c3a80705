// Reddit sources (issue 25 §1): every enabled reddit source joins the scanner's ONE multireddit request, changes
// apply from the next scan without a restart, posts are routed to their source and forum, and each source gets its
// own health from the poll: a banned subreddit marks its source failing while the others stay ok.
// Against the Reddit fake (tests/fakes/reddit.ts, Atom: no key).
import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { runScan } from '../../src/scanner/scan'
import { addSource, editSource, removeSource } from '../../src/scanner/source-admin'
import { listSources } from '../../src/sources/store'
import { sourceView } from '../../src/sources/view'
import { addTerm } from '../../src/terms/service'
import { fakeRedditClient, startFakeReddit, type FakeReddit } from '../fakes/reddit'
import { createUserWithSession, makeDeps, testClock, type TestDeps } from '../helpers'

let fake: FakeReddit
let deps: TestDeps
let clock: ReturnType<typeof testClock>

beforeEach(async () => {
  clock = testClock()
  fake = await startFakeReddit({ now: () => clock.now().getTime() })
  // the scanner's client on the test clock: its budget's waits move the clock (probing a banned subreddit waits)
  deps = makeDeps({ REDDIT_BASE_URL: fake.url }, clock, { source: fakeRedditClient(fake, { clock }) })
})
afterEach(async () => {
  deps.close()
  await fake.stop()
})

/** a scan once the rate budget allows the next request */
async function scan() {
  clock.advance(120_000)
  return runScan(deps, deps.source)
}
const lastPath = () => fake.listingRequests().at(-1)?.path
const bySub = async (sub: string) => (await listSources(deps)).find((s) => s.subreddits.includes(sub))!
const stored = () =>
  deps.sqlite
    .query<{ subreddit: string; title: string; forum: string; post_type: string | null; source_id: number | null; source_name: string | null }, []>(
      'SELECT subreddit, title, forum, post_type, source_id, source_name FROM posts ORDER BY id',
    )
    .all()

test('first start: the two configured subreddits are two reddit sources, and the server reads them in one request', async () => {
  const own = makeDeps({ REDDIT_BASE_URL: fake.url, ACCESSORIES_SUBREDDIT: 'mechmarket', DEALS_SUBREDDIT: 'buildapcsales' }, clock)
  try {
    expect((await listSources(own)).map((s) => [s.kind, s.forum, s.name, s.subreddits, s.enabled])).toEqual([
      ['reddit', 'accessories', 'r/mechmarket', ['mechmarket'], true],
      ['reddit', 'deals', 'r/buildapcsales', ['buildapcsales'], true],
    ])
    await runScan(own, own.source)
    expect(fake.listingRequests().map((r) => r.path)).toEqual(['/r/mechmarket+buildapcsales/new/.rss'])
  } finally {
    own.close()
  }
})

test('an added source joins the one request at the next scan; its posts are routed to it and its forum; disabled, it drops out', async () => {
  const user = await createUserWithSession(deps, { role: 'product+gd' })
  await addTerm(deps, user.userId, { role: 'product+gd', subscriptionStatus: 'active', accessExpiresAt: null }, 'wts', 'gmmk')
  const mm = (await addSource(deps, { kind: 'reddit', forum: 'accessories', preset: 'mechmarket' }, deps.feeds)).source
  const bapcs = (await addSource(deps, { kind: 'reddit', forum: 'deals', subreddits: 'buildapcsales', name: 'PC deals' }, deps.feeds)).source
  expect(mm.name).toBe('Mechmarket')
  fake.publish({ subreddit: 'mechmarket', title: '[US-CA] [H] GMMK Pro, Gateron yellows [W] PayPal' })
  fake.publish({ subreddit: 'buildapcsales', title: '[GPU] ASUS RTX 4070 Super - $549' })
  fake.publish({ subreddit: 'GunAccessoriesForSale', title: '[WTS] Trijicon RMR - $400' })
  fake.publish({ subreddit: 'gundeals', title: '[Optic] Holosun 507C - $279' })

  const outcome = await scan()
  expect(outcome).toMatchObject({ status: 'success', postsNew: 4, matchesCreated: 1, requests: 1 })
  expect(fake.listingRequests().map((r) => r.path)).toEqual(['/r/GunAccessoriesForSale+mechmarket+gundeals+buildapcsales/new/.rss'])
  const gafs = (await bySub('GunAccessoriesForSale')).id
  const gd = (await bySub('gundeals')).id
  expect(stored().map((p) => [p.subreddit, p.forum, p.post_type, p.source_id, p.source_name])).toEqual([
    ['mechmarket', 'product', 'wts', mm.id, 'Mechmarket'],
    ['buildapcsales', 'gd', 'gd', bapcs.id, 'PC deals'],
    ['GunAccessoriesForSale', 'product', 'wts', gafs, 'r/GunAccessoriesForSale'],
    ['gundeals', 'gd', 'gd', gd, 'r/gundeals'],
  ])
  // health: each source from the one poll, with its own new posts
  for (const s of await listSources(deps)) expect([s.name, sourceView(deps, s).health.state, s.lastPosts]).toEqual([s.name, 'ok', 1])

  await editSource(deps, mm.id, { enabled: false }, deps.feeds)
  await scan()
  expect(lastPath()).toBe('/r/GunAccessoriesForSale+gundeals+buildapcsales/new/.rss')
  await removeSource(deps, bapcs.id, deps.feeds)
  await scan()
  expect(lastPath()).toBe('/r/GunAccessoriesForSale+gundeals/new/.rss')
  // a source's posts keep its name after it is gone
  expect(stored().find((p) => p.subreddit === 'buildapcsales')!.source_name).toBe('PC deals')
})

test('an edited subreddit list applies from the next scan', async () => {
  const id = (await bySub('gundeals')).id
  await editSource(deps, id, { subreddits: 'gundeals,buildapcsales' }, deps.feeds)
  await scan()
  expect(lastPath()).toBe('/r/GunAccessoriesForSale+gundeals+buildapcsales/new/.rss')
})

test('with no enabled reddit source the scan sends nothing', async () => {
  for (const s of await listSources(deps)) await editSource(deps, s.id, { enabled: false }, deps.feeds)
  const outcome = await scan()
  expect(outcome).toMatchObject({ status: 'waiting', requests: 0 })
  expect(fake.listingRequests()).toEqual([])
  for (const s of await listSources(deps)) await removeSource(deps, s.id, deps.feeds)
  expect((await scan()).status).toBe('waiting')
  expect(fake.listingRequests()).toEqual([])
})

describe('health per source', () => {
  test('a banned subreddit marks its source failing, in words; the others are read and stay ok', async () => {
    const mm = (await addSource(deps, { kind: 'reddit', forum: 'accessories', subreddits: 'mechmarket' }, deps.feeds)).source
    fake.ban('GunAccessoriesForSale')
    fake.publish({ subreddit: 'mechmarket', title: '[US-TX] [H] Keychron Q1 [W] PayPal' })
    fake.publish({ subreddit: 'gundeals', title: '[Optic] Holosun 507C - $279' })
    const outcome = await scan()
    expect(outcome).toMatchObject({ status: 'success', postsNew: 2 })
    const view = async (sub: string) => sourceView(deps, await bySub(sub))
    const banned = (await view('GunAccessoriesForSale')).health
    expect(banned.state).toBe('failing')
    expect(banned.summary).toMatch(/r\/GunAccessoriesForSale answered missing \(banned, private or no such subreddit\)/)
    expect([(await view('mechmarket')).health.state, (await view('mechmarket')).health.lastPosts]).toEqual(['ok', 1])
    expect([(await view('gundeals')).health.state, (await view('gundeals')).health.lastPosts]).toEqual(['ok', 1])
    expect(stored().map((p) => [p.subreddit, p.source_id])).toEqual([
      ['mechmarket', mm.id],
      ['gundeals', (await bySub('gundeals')).id],
    ])
  })
  test('a failed poll marks every enabled reddit source failing, a disabled one stays disabled', async () => {
    const mm = (await addSource(deps, { kind: 'reddit', forum: 'accessories', subreddits: 'mechmarket', enabled: false }, deps.feeds)).source
    fake.block()
    expect((await scan()).status).toBe('failed')
    for (const s of await listSources(deps)) expect([s.name, sourceView(deps, s).health.state]).toEqual([s.name, s.id === mm.id ? 'disabled' : 'failing'])
    expect(sourceView(deps, await bySub('gundeals')).health.lastError).toMatch(/^blocked: /)
  })
})

test("'Fetch now' before saving a reddit source shows its newest posts classified, stores nothing; saving stores them at once", async () => {
  fake.publish({ subreddit: 'mechmarket', title: '[US-CA] [H] GMMK Pro [W] PayPal' })
  fake.publish({ subreddit: 'mechmarket', title: '[US-NY] [H] PayPal [W] Keychron Q1' })
  fake.publish({ subreddit: 'mechmarket', title: '[GB] GMK Olivia++ group buy' })
  clock.advance(120_000)
  const preview = await deps.feeds.preview({ kind: 'reddit', forum: 'accessories', subreddits: ['mechmarket'], url: null, name: 'r/mechmarket' })
  expect(preview.posts.map((p) => [p.title, p.category, p.category && p.location])).toEqual([
    ['[GB] GMK Olivia++ group buy', null, null],
    ['[US-NY] [H] PayPal [W] Keychron Q1', 'wtb', 'US-NY'],
    ['[US-CA] [H] GMMK Pro [W] PayPal', 'wts', 'US-CA'],
  ])
  expect(fake.listingRequests().at(-1)!.path).toBe('/r/mechmarket/new/.rss')
  expect(stored()).toEqual([])
  const { source, ingested } = await addSource(deps, { kind: 'reddit', forum: 'accessories', subreddits: 'mechmarket' }, deps.feeds)
  expect(ingested).toMatchObject({ status: 'ok', new: 3 })
  expect(stored().map((p) => [p.source_id, p.source_name, p.post_type])).toEqual([
    [source.id, 'r/mechmarket', null],
    [source.id, 'r/mechmarket', 'wtb'],
    [source.id, 'r/mechmarket', 'wts'],
  ])
})
