// A server with no Reddit key, as a new self-hoster starts it: posts arrive through the Atom feed and reach
// a subscriber's matches; when Reddit refuses, every place an operator looks names the cause and the fix.
import { afterEach, describe, expect, test } from 'bun:test'
import { BLOCK_PAGE } from '../../src/forums/reddit-client'
import { recentLogLines } from '../../src/lib/log'
import { runScan } from '../../src/scanner/scan'
import { BANNED_DEFAULT_NOTICE } from '../../src/scanner/source'
import { addTerm } from '../../src/terms/service'
import { startFakeReddit, type FakeReddit } from '../fakes/reddit'
import { createUserWithSession, startTestServer } from '../helpers'

let fake: FakeReddit | null = null
let server: Awaited<ReturnType<typeof startTestServer>> | null = null
afterEach(async () => {
  await server?.stop()
  await fake?.stop()
  server = null
  fake = null
})

describe('first start with the default accessories forum (§8)', () => {
  test('says once, in the log, on Admin → Logs and on the Dashboard, that Reddit closed it and how to point it elsewhere', async () => {
    const seq = recentLogLines().lastSeq
    fake = await startFakeReddit()
    server = await startTestServer({ REDDIT_BASE_URL: fake.url })
    const warned = recentLogLines({ minLevel: 'warn', after: seq }).lines.filter((l) => l.text.includes('closed by Reddit'))
    expect(warned.map((l) => l.text)).toEqual([BANNED_DEFAULT_NOTICE])
    expect(BANNED_DEFAULT_NOTICE).toContain('add a source on Admin → Logs → Sources')
    const admin = await createUserWithSession(server.deps, { role: 'admin' })
    for (const path of ['/api/admin/scanner', '/api/admin/health'])
      expect((await (await fetch(`${server.url}${path}`, { headers: { cookie: admin.cookie } })).json()).forumNotice).toBe(BANNED_DEFAULT_NOTICE)
  })
})

describe('no key: the Atom feed', () => {
  test('posts are stored and matched; a block page is named on Admin → Logs, /healthz and /metrics', async () => {
    fake = await startFakeReddit()
    server = await startTestServer({ REDDIT_BASE_URL: fake.url, METRICS_TOKEN: 'metrics-token-0123456789abcdef' })
    const deps = server.deps
    expect(deps.source.mode).toBe('atom')
    const user = await createUserWithSession(deps, { role: 'product+gd' })
    const admin = await createUserWithSession(deps, { role: 'admin' })
    await addTerm(deps, user.userId, { role: 'product+gd', subscriptionStatus: 'active', accessExpiresAt: null }, 'wts', 'rmr')
    fake.publish({ title: '[WTS] Trijicon RMR Type 2 - $400', selftext: 'Like new, $400 shipped' })
    fake.publish({ title: '[Optic] Holosun 507C - $279', subreddit: 'gundeals', url: 'https://shop.example.com/507c' })
    const ok = await runScan(deps, deps.source)
    expect(ok).toMatchObject({ status: 'success', postsNew: 2, matchesCreated: 1 })
    expect(fake.listingRequests().at(-1)!.path).toBe('/r/GunAccessoriesForSale+gundeals/new/.rss')
    const get = async (path: string, headers: Record<string, string> = {}) => {
      const res = await fetch(`${server!.url}${path}`, { headers })
      return { status: res.status, text: await res.text() }
    }
    const scanner = async () => JSON.parse((await get('/api/admin/scanner', { cookie: admin.cookie })).text)
    const before = await scanner()
    expect(before.health).toMatchObject({ state: 'ok', requestsLastHour: 1 })
    expect(before.forumNotice).toContain('r/GunAccessoriesForSale was closed by Reddit in Oct 2025')
    expect(before.lastPostPerForum.map((f: any) => f.subreddit).sort()).toEqual(['GunAccessoriesForSale', 'gundeals'])

    fake.block()
    deps.source.budget!.succeeded()
    const failed = await runScan(deps, deps.source, { manual: true })
    expect(failed.status).toBe('failed')
    expect(failed.error).toBe(`blocked: ${BLOCK_PAGE}`)
    const after = await scanner()
    expect(after.health).toMatchObject({ state: 'blocked', reason: BLOCK_PAGE, forbiddenLastHour: 1 })
    expect(after.lastError).toBe(`blocked: ${BLOCK_PAGE}`)
    expect(JSON.parse((await get('/healthz')).text).source).toBe(`blocked: ${BLOCK_PAGE}`)
    const metrics = (await get('/metrics', { authorization: 'Bearer metrics-token-0123456789abcdef' })).text
    expect(metrics).toMatch(/dibs_source_state\{source="reddit atom r\/GunAccessoriesForSale\+gundeals",state="blocked"\} 1/)
    expect(metrics).toContain('dibs_source_forbidden_last_hour 1')
  })
})
