import { afterEach, describe, expect, test } from 'bun:test'
import { RedditClient, RedditError } from '../../src/forums/reddit-client.ts'
import { startFakeReddit, type FakeReddit, type FakeRedditOptions } from '../fakes/reddit.ts'
import { rejection, simClock } from './reddit-helpers'

const SUBS = ['GunAccessoriesForSale', 'gundeals']
const UA = 'linux:dibs:0.1.0 (self-hosted; +http://localhost:3000)'
const MULTI = '/r/GunAccessoriesForSale+gundeals/new'

let fake: FakeReddit | null = null
afterEach(async () => {
  await fake?.stop()
  fake = null
})

async function setup(
  mode: 'public' | 'oauth' | 'atom',
  fakeOpts: FakeRedditOptions = {},
  clientOpts: Partial<ConstructorParameters<typeof RedditClient>[0]> = {},
) {
  const c = simClock()
  // 'public': logged-out JSON as it answered before May 2026 (REDDIT_MODE=json against a fake that still serves it)
  fake = await startFakeReddit({ now: c.now, ...(mode === 'public' ? { loggedOutJson: 'open' as const } : {}), ...fakeOpts })
  const client = new RedditClient({
    baseUrl: mode === 'oauth' ? fake.oauthUrl : fake.url,
    authUrl: fake.authUrl,
    clientId: mode === 'oauth' ? fake.clientId : null,
    clientSecret: mode === 'oauth' ? fake.clientSecret : null,
    userAgent: UA,
    subreddits: SUBS,
    timeoutMs: 2000,
    now: c.now,
    sleep: async (ms) => c.advance(ms),
    ...(mode === 'public' ? { mode: 'json' as const } : {}),
    ...clientOpts,
  })
  return { fake, client, clock: c }
}

describe('public JSON mode', () => {
  test('asks one multireddit listing with raw_json, a rotating limit and our User-Agent', async () => {
    const { fake, client, clock } = await setup('public')
    fake.publish({ title: '[WTS] Aimpoint T-2 - $640', subreddit: 'GunAccessoriesForSale' })
    fake.publish({ title: '[Optic] Holosun 507C X2 - $279.99', subreddit: 'gundeals', url: 'https://shop.example.com/507c' })
    fake.publish({ title: 'not ours', subreddit: 'guns' })
    const first = await client.fetchNew()
    clock.advance(8000)
    await client.fetchNew()
    clock.advance(8000)
    await client.fetchNew({ after: 't3_abc', limit: 25 })

    expect(first.posts.map((p) => p.subreddit)).toEqual(['gundeals', 'GunAccessoriesForSale'])
    expect(client.mode).toBe('public')
    const reqs = fake.listingRequests()
    expect(reqs.map((r) => r.path)).toEqual([`${MULTI}.json`, `${MULTI}.json`, `${MULTI}.json`])
    expect(reqs.map((r) => r.host)).toEqual(['www', 'www', 'www'])
    expect(reqs.map((r) => r.query)).toEqual([
      { limit: '100', raw_json: '1' },
      { limit: '99', raw_json: '1' },
      { limit: '25', raw_json: '1', after: 't3_abc' },
    ])
    for (const r of reqs) {
      expect(r.headers['user-agent']).toBe(UA)
      expect(r.headers.authorization).toBeUndefined()
    }
    expect(fake.tokenRequests).toHaveLength(0)
  })

  test('reads the rate-limit headers into the budget', async () => {
    const { fake, client } = await setup('public', { rateLimit: { limit: 100, windowSeconds: 600 } })
    fake.publish()
    await client.fetchNew()
    const snap = client.budget.snapshot(Date.now())
    expect(snap.used).toBe(1)
    expect(snap.remaining).toBe(99)
    expect(client.budget.capPerMinute).toBe(10)
  })
})

describe('OAuth mode', () => {
  test('takes an app-only token once with Basic auth and sends it as bearer', async () => {
    const { fake, client, clock } = await setup('oauth')
    fake.publishMany(3)
    for (let i = 0; i < 3; i++) {
      expect((await client.fetchNew()).posts).toHaveLength(3)
      clock.advance(2000)
    }
    expect(fake.tokenRequests).toHaveLength(1)
    const tok = fake.tokenRequests[0]!
    expect(tok.headers.authorization).toBe(`Basic ${btoa(`${fake.clientId}:${fake.clientSecret}`)}`)
    expect(tok.body).toBe('grant_type=client_credentials')
    expect(tok.headers['user-agent']).toBe(UA)
    const reqs = fake.listingRequests()
    expect(reqs.map((r) => `${r.host} ${r.path}`)).toEqual(Array(3).fill(`oauth ${MULTI}`))
    expect(new Set(reqs.map((r) => r.headers.authorization)).size).toBe(1)
    expect(reqs[0]!.headers.authorization).toMatch(/^bearer \S+$/)
    expect(client.budget.capPerMinute).toBe(100)
  })

  test('refetches the token a minute before it expires', async () => {
    const { fake, client, clock } = await setup('oauth', { tokenExpiresIn: 3600 })
    await client.fetchNew()
    clock.advance(3600_000 - 61_000)
    await client.fetchNew()
    expect(fake.tokenRequests).toHaveLength(1)
    clock.advance(2_000)
    await client.fetchNew()
    expect(fake.tokenRequests).toHaveLength(2)
  })

  test('a 401 on a cached token fetches a new token and retries once', async () => {
    const { fake, client, clock } = await setup('oauth')
    fake.publish()
    await client.fetchNew()
    fake.revokeTokens()
    clock.advance(2000)
    const again = await client.fetchNew()
    expect(again.posts).toHaveLength(1)
    expect(fake.tokenRequests).toHaveLength(2)
    expect(fake.listingRequests()).toHaveLength(3)
  })

  test('wrong credentials are an auth error and nothing is listed', async () => {
    const { fake, client } = await setup('oauth', {}, { clientSecret: 'wrong' })
    const err = await rejection(client.fetchNew())
    expect(err.kind).toBe('auth')
    expect(fake.listingRequests()).toHaveLength(0)
  })
})

describe('failures', () => {
  test('429 honours the reset: no request reaches Reddit before it', async () => {
    const { fake, client, clock } = await setup('oauth', { rateLimit: { limit: 1000, windowSeconds: 45 } })
    fake.setFault('429')
    const err = await rejection(client.fetchNew())
    expect(err.kind).toBe('rate_limited')
    expect(err.details.status).toBe(429)
    expect(err.details.resetSeconds).toBe(45)
    const sent = fake.listingRequests().length

    clock.advance(44_000)
    const blocked = await rejection(client.fetchNew())
    expect(blocked.kind).toBe('rate_limited')
    expect(blocked.details.sent).toBe(false)
    expect(fake.listingRequests()).toHaveLength(sent)

    clock.advance(1_000)
    await client.fetchNew()
    expect(fake.listingRequests()).toHaveLength(sent + 1)
  })

  test("Reddit's remaining running out stops requests until the window resets", async () => {
    const { fake, client, clock } = await setup('oauth', { rateLimit: { limit: 3, windowSeconds: 60 } })
    for (let i = 0; i < 3; i++) {
      await client.fetchNew()
      clock.advance(1000)
    }
    const err = await rejection(client.fetchNew())
    expect(err.details.sent).toBe(false)
    expect(fake.listingRequests()).toHaveLength(3)
    clock.advance(57_000)
    await client.fetchNew()
    expect(fake.listingRequests()).toHaveLength(4)
  })

  const cases: { fault: '500' | '503' | 'timeout' | 'malformed'; kind: RedditError['kind'] }[] = [
    { fault: '500', kind: 'server' },
    { fault: '503', kind: 'server' },
    { fault: 'timeout', kind: 'timeout' },
    { fault: 'malformed', kind: 'malformed' },
  ]
  for (const { fault, kind } of cases)
    test(`${fault} is a typed ${kind} error, backs off, and the next call recovers`, async () => {
      const { fake, client, clock } = await setup('public', { timeoutDelayMs: 1500 }, { timeoutMs: 300 })
      fake.publish()
      fake.setFault(fault)
      const err = await rejection(client.fetchNew())
      expect(err.kind).toBe(kind)
      const soon = await rejection(client.fetchNew())
      expect(soon.details.sent).toBe(false)
      clock.advance(8_000)
      expect((await client.fetchNew()).posts).toHaveLength(1)
      expect(client.budget.snapshot(clock.now()).consecutiveFailures).toBe(0)
    })

  test('an unreachable Reddit is a network error', async () => {
    const { client } = await setup('public', {}, { baseUrl: 'http://127.0.0.1:9' })
    expect((await rejection(client.fetchNew())).kind).toBe('network')
  })
})

describe('catching up after downtime', () => {
  test('150 posts published while we were away come back oldest first, stopping at the known post', async () => {
    const { fake, client } = await setup('public')
    const before = fake.publishMany(20)
    const known = new Set(before.map((p) => p.id))
    const missed = fake.publishMany(150, { subreddit: 'gundeals' })

    const result = await client.fetchSince((id) => known.has(id))
    expect(result.reachedKnown).toBe(true)
    expect(result.pages).toBe(2)
    expect(result.posts.map((p) => p.redditId)).toEqual(missed.map((p) => p.id))
    expect(fake.listingRequests()[1]!.query.after).toBe(`t3_${missed[150 - 100]!.id}`)
  })

  test('with nothing known it pages to the end of the listing and says so', async () => {
    const { fake, client } = await setup('oauth')
    fake.publishMany(230)
    const result = await client.fetchSince(() => false)
    expect(result.reachedKnown).toBe(false)
    expect(result.posts).toHaveLength(230)
    expect(result.pages).toBe(3)
  })

  test('maxPages bounds the catch-up', async () => {
    const { fake, client } = await setup('oauth')
    fake.publishMany(250)
    const result = await client.fetchSince(() => false, { maxPages: 1 })
    expect(result.pages).toBe(1)
    expect(result.posts).toHaveLength(100)
  })

  test('a deep catch-up waits for the budget between pages instead of exceeding it', async () => {
    const { fake, client } = await setup('public')
    fake.publishMany(1200)
    const result = await client.fetchSince(() => false)
    expect(result.posts.length).toBeGreaterThanOrEqual(1000)
    const times = fake.listingRequests().map((r) => r.at)
    expect(times.length).toBe(11)
    for (const start of times) expect(times.filter((t) => t >= start && t < start + 60_000).length).toBeLessThanOrEqual(10)
  })
})

test('a burst of scans never exceeds the budget', async () => {
  const { fake, client, clock } = await setup('public')
  fake.publish()
  let refused = 0
  for (let i = 0; i < 360; i++) {
    try {
      await client.fetchNew()
    } catch (e) {
      if (!(e instanceof RedditError) || e.details.sent !== false) throw e
      refused++
    }
    clock.advance(500) // a scanner gone wild: every half second for three minutes
  }
  const times = fake.listingRequests().map((r) => r.at)
  expect(times.length).toBe(30)
  expect(refused).toBe(330)
  for (const start of times) expect(times.filter((t) => t >= start && t < start + 60_000).length).toBeLessThanOrEqual(10)
})
