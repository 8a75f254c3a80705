// Operator commands of ingestion and matching, run as separate processes beside a running server
// on the same DATA_DIR: their effects reach the server's bus (and so its browsers) live.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { storePosts } from '../../src/forums/store'
import { addTerm } from '../../src/terms/service'
import { startFakeReddit, type FakeReddit } from '../fakes/reddit'
import { forumPost } from '../fakes/forum-post'
import { createUserWithSession, runCli, spawnCli, startTestServer } from '../helpers'

const FULL = { role: 'product+gd' as const, subscriptionStatus: 'active', accessExpiresAt: null }

describe('ingestion commands', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let fake: FakeReddit
  let env: Record<string, string>
  let userId: number
  const seen: { name: string; data: any }[] = []
  beforeAll(async () => {
    fake = await startFakeReddit()
    server = await startTestServer({ REDDIT_BASE_URL: fake.url, REDDIT_AUTH_URL: fake.authUrl })
    env = { DATA_DIR: server.config.dataDir, REDDIT_BASE_URL: fake.url, REDDIT_AUTH_URL: fake.authUrl }
    userId = (await createUserWithSession(server.deps)).userId
    await addTerm(server.deps, userId, FULL, 'wts', 'aimpoint')
    for (const name of ['match.new', 'unread', 'post.new', 'scan.metric', 'scan.next'] as const)
      server.deps.bus.on(name, (data) => void seen.push({ name, data }))
  })
  afterAll(async () => {
    await server.stop()
    await fake.stop()
  })

  test('dibs --help lists them', () => {
    const r = runCli(['--help'], {})
    for (const c of ['dibs scan', 'dibs match [--since 24h]', 'dibs backfill-post-types', 'dibs archive-posts [--older-than 7d]']) expect(r.out).toContain(c)
  })

  test('dibs scan beside a server: the server scans (its rate budget, its term index) and the CLI prints its result', async () => {
    await Bun.sleep(1100) // Reddit times are whole seconds: the post must be newer than the term
    fake.publish({ title: '[WTS] Aimpoint T-2 - $640' })
    fake.publish({ title: '[WTB] Holster for P365' })
    const requests = fake.listingRequests().length
    // The CLI's own Reddit is unreachable: only the server can have fetched these posts.
    const r = await spawnCli(['scan'], { ...env, REDDIT_BASE_URL: 'http://127.0.0.1:9' })
    expect(r.err).toBe('')
    expect(r.code).toBe(0)
    expect(r.out).toContain('(run by the server on this DATA_DIR: one Reddit rate budget, one term index)')
    expect(r.out).toContain('scan success: 2 fetched, 2 new, 1 matches')
    expect(fake.listingRequests().length).toBe(requests + 1)
    expect(fake.listingRequests().at(-1)!.headers['user-agent']).toBe(server.config.reddit.userAgent)
    const alert = seen.find((e) => e.name === 'match.new')
    expect(alert?.data).toMatchObject({ userId, notify: true, match: { title: '[WTS] Aimpoint T-2 - $640' } })
    expect(seen.filter((e) => e.name === 'post.new')).toHaveLength(2)
    expect(seen.some((e) => e.name === 'scan.metric')).toBe(true)
    const log = server.deps.sqlite.query("SELECT status FROM maintenance_logs WHERE job_name = 'fetch-reddit-posts'").all()
    expect(log).toEqual([{ status: 'success' }])
  })

  test('dibs match --since 24h creates the missing matches and prints the batch result', async () => {
    await storePosts(server.deps, [forumPost('[WTS] Aimpoint PRO - $360', { ageMs: 3600_000 }), forumPost('[WTS] Aimpoint ACRO', { ageMs: 30 * 3600_000 })])
    const r = await spawnCli(['match', '--since', '24h'], env)
    expect(r.code).toBe(0)
    expect(r.out).toMatch(/total_search_terms=1 recent_posts_count=3 matches_created=1 execution_time_seconds=[\d.]+/)
    expect(r.out).toContain('(run by the server on this DATA_DIR') // batch matching on the server's term index
    expect(r.out).not.toContain('matched 3/3 posts') // progress is for terminals only
    expect(server.deps.sqlite.query("SELECT count(*) AS n FROM maintenance_logs WHERE job_name = 'match-batch'").get()).toEqual({ n: 1 })
    const wide = await spawnCli(['match', '--since', '2d'], env)
    expect(wide.out).toContain('recent_posts_count=4 matches_created=1')
    expect((await spawnCli(['match', '--since', 'soon'], env)).code).toBe(2)
  })

  test('dibs backfill-post-types classifies posts stored without a type', async () => {
    server.deps.sqlite
      .query(
        "INSERT INTO posts (reddit_id, forum, subreddit, title, url, created_at) VALUES ('zz1', 'product', 'GunAccessoriesForSale', '[WTS] Unclassified Aimpoint', 'https://www.reddit.com/zz1', ?)",
      )
      .run(Date.now())
    const r = await spawnCli(['backfill-post-types'], env)
    expect(r.code).toBe(0)
    expect(r.out).toContain('backfill done: 1 of 1 unclassified post(s) classified')
    expect(server.deps.sqlite.query("SELECT post_type, classification FROM posts WHERE reddit_id = 'zz1'").get()).toEqual({
      post_type: 'wts',
      classification: 'wts',
    })
  })

  test('dibs archive-posts keeps the 7-day feed by default; matches keep their post title and url', async () => {
    await storePosts(server.deps, [forumPost('[WTS] Aimpoint from last month', { ageMs: 30 * 86_400_000 })])
    const before = (server.deps.sqlite.query('SELECT count(*) AS n FROM posts').get() as { n: number }).n
    const r = await spawnCli(['archive-posts'], env)
    expect(r.out).toContain('archive done: 1 post(s) older than 7d archived')
    expect((server.deps.sqlite.query('SELECT count(*) AS n FROM posts').get() as { n: number }).n).toBe(before - 1)
    const r2 = await spawnCli(['archive-posts', '--older-than', '30m'], env)
    expect(r2.out).toMatch(/archive done: [1-9]\d* post\(s\) older than 30m archived/)
    const orphan = server.deps.sqlite.query("SELECT post_id, post_title, post_url FROM matches WHERE post_title = '[WTS] Aimpoint PRO - $360'").get() as any
    expect(orphan.post_id).toBeNull()
    expect(orphan.post_url).toContain('https://www.reddit.com/')
  })
})

describe('dibs scan without a running server', () => {
  test('queues the alert emails itself in the outbox, for the server to deliver when it starts', async () => {
    const fake = await startFakeReddit()
    const server = await startTestServer()
    const deps = server.deps
    const { userId } = await createUserWithSession(deps, { emailFrequency: 'instant' })
    await addTerm(deps, userId, FULL, 'wts', 'eotech')
    await server.stop() // no server on this DATA_DIR any more
    await Bun.sleep(1100)
    fake.publish({ title: '[WTS] EOTech EXPS3-0 - $520' })
    const r = await spawnCli(['scan'], { DATA_DIR: server.config.dataDir, REDDIT_BASE_URL: fake.url, REDDIT_AUTH_URL: fake.authUrl })
    expect(r.code).toBe(0)
    expect(r.out).toContain('1 matches')
    const { Database } = await import('bun:sqlite')
    const db = new Database(server.config.dbPath, { readonly: true })
    expect(db.query("SELECT channel, kind, status FROM outbox WHERE kind = 'match'").all()).toEqual([{ channel: 'email', kind: 'match', status: 'pending' }])
    db.close()
    await fake.stop()
  })
})
