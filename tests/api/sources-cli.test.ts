// `dibs sources …` run as separate processes, as an operator would: beside a running server on the same DATA_DIR
// (its scanner and feed poller pick the changes up without a restart; `test` is fetched by that server) and on a
// DATA_DIR of its own (seeded from the environment like a first start; `test` fetches in the CLI process).
// Every state-changing subcommand writes an audit row; list, test and presets write none.
import { Database } from 'bun:sqlite'
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir, userInfo } from 'node:os'
import { join } from 'node:path'
import { runScan } from '../../src/scanner/scan'
import { getSource, listSources } from '../../src/sources/store'
import { sourceView } from '../../src/sources/view'
import { PRESETS } from '../../src/sources/presets'
import { startForumFeeds, type ForumFeeds } from '../fakes/forum-feeds'
import { startFakeReddit, type FakeReddit } from '../fakes/reddit'
import { spawnCli, startTestServer } from '../helpers'

const actor = `cli:${userInfo().username}`

describe('dibs sources beside a running server', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let reddit: FakeReddit
  let forums: ForumFeeds
  let env: Record<string, string>
  const cli = (...args: string[]) => spawnCli(['sources', ...args], env)
  const auditRows = () =>
    server.deps.sqlite
      .query<{ actor: string; action: string; target: string | null; result: string; details: string | null }, []>(
        "SELECT actor, action, target, result, details FROM audit_log WHERE action LIKE 'source.%' ORDER BY id",
      )
      .all()
      .map((r) => ({ ...r, details: r.details ? JSON.parse(r.details) : null }))
  const idOf = (out: string) => Number(/source (\d+):/.exec(out)![1])

  beforeAll(async () => {
    reddit = await startFakeReddit()
    forums = await startForumFeeds()
    const fakes = { REDDIT_BASE_URL: reddit.url, REDDIT_AUTH_URL: reddit.authUrl, ALLOW_PRIVATE_SOURCES: '1' }
    server = await startTestServer(fakes)
    env = { DATA_DIR: server.config.dataDir, APP_URL: server.deps.config.appUrl, ...fakes }
  })
  afterAll(async () => {
    await server.stop()
    await reddit.stop()
    await forums.stop()
  })

  test('list: the seeded sources as a table, --json the SourceView list', async () => {
    const r = await cli('list')
    expect(r.err).toBe('')
    expect(r.code).toBe(0)
    const lines = r.out.trimEnd().split('\n')
    expect(lines[0]).toMatch(/^id\s+forum\s+kind\s+enabled\s+name\s+address\s+health$/)
    expect(lines[1]).toMatch(/^1\s+accessories\s+reddit\s+yes\s+r\/GunAccessoriesForSale\s+r\/GunAccessoriesForSale\s+Not read yet/)
    expect(lines[2]).toMatch(/^2\s+deals\s+reddit\s+yes\s+r\/gundeals\s+r\/gundeals\s+Not read yet/)
    const json = await cli('list', '--json')
    expect(JSON.parse(json.out)).toEqual((await listSources(server.deps)).map((s) => sourceView(server.deps, s)))
  })

  test('add a reddit source: the running scanner reads it at its next scan; disable: the next scan leaves it out', async () => {
    const r = await cli('add', '--forum', 'accessories', '--kind', 'reddit', '--subreddits', 'mechmarket,r/hardwareswap')
    expect(r.err).toBe('')
    expect(r.code).toBe(0)
    const id = idOf(r.out)
    expect(r.out).toContain(`added source ${id}: r/mechmarket+r/hardwareswap (accessories, reddit, enabled)`)
    expect(await getSource(server.deps, id)).toMatchObject({ kind: 'reddit', subreddits: ['mechmarket', 'hardwareswap'], enabled: true })

    await runScan(server.deps)
    expect(reddit.listingRequests().at(-1)!.path).toContain('/r/GunAccessoriesForSale+mechmarket+hardwareswap+gundeals/new')

    const off = await cli('disable', String(id))
    expect(off.code).toBe(0)
    expect(off.out).toContain(`source ${id}: r/mechmarket+r/hardwareswap (accessories, reddit, disabled)`)
    await runScan(server.deps)
    expect(reddit.listingRequests().at(-1)!.path).toContain('/r/GunAccessoriesForSale+gundeals/new')

    const on = await cli('enable', String(id))
    expect(on.out).toContain('(accessories, reddit, enabled)')
    expect((await cli('remove', String(id))).out).toContain(`removed source ${id}: r/mechmarket+r/hardwareswap; the posts it brought stay`)
    expect(await getSource(server.deps, id)).toBeNull()
  }, 60_000)

  test('add a push source: its secret is printed this once, with the ingest URL; rotate-secret prints a new one', async () => {
    const r = await cli('add', '--forum', 'accessories', '--kind', 'push', '--name', 'My scraper')
    expect(r.err).toBe('')
    expect(r.code).toBe(0)
    const id = idOf(r.out)
    const secret = (await getSource(server.deps, id))!.secret!
    expect(secret).toMatch(/^dps_/)
    expect(r.out).toBe(
      [
        `added source ${id}: My scraper (accessories, push, enabled)`,
        `ingest URL: ${server.deps.config.appUrl}/api/ingest/${id} (POST, signed: README "Pushed posts")`,
        `secret: ${secret}`,
        `This secret is shown once and will not be shown again: keep it now (dibs sources rotate-secret ${id} makes a new one).`,
        '',
      ].join('\n'),
    )
    const list = await cli('list')
    expect(list.out).toMatch(
      new RegExp(`\\n${id}\\s+accessories\\s+push\\s+yes\\s+My scraper\\s+${server.deps.config.appUrl}/api/ingest/${id}\\s+Waiting for the first push`),
    )
    const json = await cli('list', '--json')
    for (const out of [list.out, json.out]) expect(out).not.toContain(secret)

    const rotated = await cli('rotate-secret', String(id))
    expect(rotated.code).toBe(0)
    const next = (await getSource(server.deps, id))!.secret!
    expect(next).not.toBe(secret)
    expect(rotated.out).toContain(
      `source ${id} has a new secret; the old one stops working now\nsecret: ${next}\nThis secret is shown once and will not be shown again`,
    )
    expect((await cli('rotate-secret', '1')).err).toContain('sources failed: Only a push source has a secret.')
  }, 60_000)

  test('add a feed source: the running feed poller reads it at its next tick; test beside the server is fetched by that server, within its politeness', async () => {
    const url = forums.url + forums.paths.xenforo
    const r = await cli('add', '--forum', 'accessories', '--kind', 'feed', '--url', url, '--name', 'Optics classifieds')
    expect(r.err).toBe('')
    const id = idOf(r.out)
    expect(r.out).toContain(`added source ${id}: Optics classifieds (accessories, feed, enabled)\ndibs sources test ${id} shows what it reads`)
    const [outcome] = await server.deps.feeds.tick()
    expect(outcome).toMatchObject({ status: 'ok', fetched: 3, new: 3 })
    const stored = server.deps.sqlite.query<{ n: number }, [number]>('SELECT count(*) AS n FROM posts WHERE source_id = ?').get(id)
    expect(stored).toEqual({ n: 3 })

    // The server just asked 127.0.0.1: a test of the same host waits for its politeness interval, and says so.
    const again = await cli('test', String(id))
    expect(again.code).toBe(1)
    expect(again.err).toContain('sources failed: the running server could not preview: 127.0.0.1 was asked less than 60 s ago')
  }, 60_000)

  test('test a reddit source beside the server: the server fetches it once, the posts and their classification, nothing stored', async () => {
    reddit.publish({ subreddit: 'GunAccessoriesForSale', title: '[WTS][TX] Aimpoint T-2 with LRP mount - $650' })
    reddit.publish({ subreddit: 'GunAccessoriesForSale', title: '[WTB] Holster for a P365' })
    const posts = () => server.deps.sqlite.query<{ n: number }, []>('SELECT count(*) AS n FROM posts').get()!.n
    const before = posts()
    const requests = reddit.listingRequests().length
    const r = await cli('test', '1')
    expect(r.err).toBe('')
    expect(r.code).toBe(0)
    const lines = r.out.trimEnd().split('\n')
    expect(lines[0]).toBe('(fetched by the server on this DATA_DIR: its politeness interval per host, its Reddit rate budget)')
    expect(lines[1]).toMatch(/^source 1: \d+ post\(s\) read from "r\/GunAccessoriesForSale", reddit; nothing stored$/)
    expect(lines[2]).toMatch(/^classified as\s+price\s+location\s+state\s+title$/)
    expect(lines.find((l) => l.includes('Aimpoint T-2'))).toMatch(/^WTS \(for sale\)\s+\$650\s+TX\s+open\s+\[WTS\]\[TX\] Aimpoint T-2 with LRP mount - \$650$/)
    expect(lines.find((l) => l.includes('Holster'))).toMatch(/^WTB \(wanted\)\s+-\s+/)
    expect(reddit.listingRequests().at(-1)!.path).toBe('/r/GunAccessoriesForSale/new/.rss')
    expect(reddit.listingRequests().length).toBe(requests + 1)
    expect(posts()).toBe(before)

    const json = JSON.parse((await cli('test', '1', '--json')).out)
    expect(json).toMatchObject({ software: 'reddit', title: 'r/GunAccessoriesForSale' })
    expect(json.posts.find((p: any) => p.title.includes('Holster'))).toMatchObject({ category: 'wtb', classifiedAs: 'WTB (wanted)' })
  }, 60_000)

  test('bad input: the field and its problem, exit 1 (audited as failed); usage errors exit 2 and write no row', async () => {
    const before = auditRows().length
    const failures: [string[], string][] = [
      [['add', '--forum', 'accessories', '--kind', 'ftp'], 'sources failed: kind: must be reddit, feed or push'],
      [['add', '--forum', 'garage', '--kind', 'reddit', '--subreddits', 'mechmarket'], 'sources failed: forum: must be accessories or deals'],
      [['add', '--forum', 'accessories', '--kind', 'reddit'], 'sources failed: subreddits: name at least one subreddit'],
      [['add', '--forum', 'accessories', '--kind', 'reddit', '--subreddits', 'no spaces!'], 'sources failed: subreddits: "spaces!" is not a subreddit name'],
      [['add', '--forum', 'accessories', '--kind', 'feed', '--url', 'ftp://example.com/feed'], 'sources failed: url: must be an http(s) URL'],
      [['add', '--forum', 'deals', '--preset', 'mechmarket'], 'sources failed: preset: feeds the accessories forum, not deals'],
      [['add', '--preset', 'nosuch'], 'sources failed: preset: "nosuch" is not a preset (dibs sources presets lists them)'],
      [['remove', '999'], 'sources failed: No such source.'],
      [['enable', '999'], 'sources failed: No such source.'],
      [['test', '999'], 'sources failed: the running server could not preview: No such source.'],
    ]
    for (const [args, message] of failures) {
      const r = await cli(...args)
      expect({ args, code: r.code, err: r.err }).toEqual({ args, code: 1, err: expect.stringContaining(message) })
    }
    // A LAN address needs ALLOW_PRIVATE_SOURCES=1 (this CLI process runs without it).
    const lan = await spawnCli(['sources', 'add', '--forum', 'accessories', '--kind', 'feed', '--url', `${forums.url}/feed.json`], {
      ...env,
      ALLOW_PRIVATE_SOURCES: '0',
    })
    expect(lan.code).toBe(1)
    expect(lan.err).toMatch(/^sources failed: url: .*(loopback|private)/)

    const usage: string[][] = [
      [],
      ['frobnicate'],
      ['add', '--forum', 'accessories', '--kind', 'reddit', '--subreddit', 'mechmarket'],
      ['add', '--forum', 'accessories', '--kind', 'reddit', '--subreddits'],
      ['remove'],
      ['remove', 'abc'],
      ['disable', '1', '2'],
      ['list', '--all'],
    ]
    for (const args of usage) {
      const r = await cli(...args)
      expect({ args, code: r.code }).toEqual({ args, code: 2 })
      expect(r.err).toContain('usage: dibs sources list|add|remove|enable|disable|rotate-secret|test|presets')
    }
    // Each failed change is one row (bad input changed nothing, but the attempt is on record, as on the admin page); tests and usage errors none.
    const rows = auditRows().slice(before)
    expect(rows.map((r) => [r.action, r.target, r.result])).toEqual([
      ['source.add', null, 'failed'],
      ['source.add', null, 'failed'],
      ['source.add', null, 'failed'],
      ['source.add', null, 'failed'],
      ['source.add', null, 'failed'],
      ['source.add', null, 'failed'],
      ['source.add', null, 'failed'],
      ['source.remove', 'source:999', 'failed'],
      ['source.edit', 'source:999', 'failed'],
      ['source.add', null, 'failed'],
    ])
  }, 120_000)

  test('every change above wrote one audit row as the CLI; list, test and presets none', () => {
    const rows = auditRows().filter((r) => r.result === 'ok')
    expect(rows.map((r) => [r.actor, r.action, r.target])).toEqual([
      [actor, 'source.add', null],
      [actor, 'source.edit', 'source:3'],
      [actor, 'source.edit', 'source:3'],
      [actor, 'source.remove', 'source:3'],
      [actor, 'source.add', null],
      [actor, 'source.rotate_secret', 'source:4'],
      [actor, 'source.add', null],
    ])
    expect(rows[0]!.details).toEqual({
      kind: 'reddit',
      forum: 'accessories',
      preset: null,
      name: null,
      url: null,
      subreddits: 'mechmarket,r/hardwareswap',
      enabled: true,
    })
    expect(rows[1]!.details).toEqual({ enabled: false })
    expect(auditRows().find((r) => r.action === 'source.rotate_secret' && r.result === 'failed')).toMatchObject({ target: 'source:1' })
  })
})

test('dibs sources presets: every preset with its kind, forum and address, and the pairs; --json the catalog', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'dibs-presets-'))
  try {
    const r = await spawnCli(['sources', 'presets'], { DATA_DIR: dir })
    expect(r.code).toBe(0)
    for (const p of PRESETS.presets)
      expect(r.out).toMatch(new RegExp(`\\n  ${p.name}\\s+${p.kind}\\s+${p.forum}\\s+\\S+\\s+${p.title.replace(/[()]/g, '\\$&')}\\n`))
    expect(r.out).toContain('forum-classifieds      feed    accessories  https://{board}/forums/{slug}.{id}/index.rss')
    expect(r.out).toMatch(/\n {2}keyboards\s+mechmarket\s+buildapcsales\s+Mechanical keyboards\n/)
    expect(r.out).toContain("Gun accessories (the spec's pair) (default)")
    expect(JSON.parse((await spawnCli(['sources', 'presets', '--json'], { DATA_DIR: dir })).out)).toEqual(JSON.parse(JSON.stringify(PRESETS)))
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}, 30_000)

describe('dibs sources without a server', () => {
  let forums: ForumFeeds
  let dir: string
  let env: Record<string, string>
  const cli = (...args: string[]) => spawnCli(['sources', ...args], env)
  beforeAll(async () => {
    forums = await startForumFeeds()
    dir = mkdtempSync(join(tmpdir(), 'dibs-sources-'))
    env = { DATA_DIR: dir, FORUM_PRESET: 'hardware', ALLOW_PRIVATE_SOURCES: '1' }
  })
  afterAll(async () => {
    await forums.stop()
    rmSync(dir, { recursive: true, force: true })
  })

  test('the first command seeds the table from the environment, as a first start does (FORUM_PRESET=hardware)', async () => {
    const r = await cli('list')
    expect(r.code).toBe(0)
    expect(r.out).toMatch(/\n1\s+accessories\s+reddit\s+yes\s+Hardwareswap\s+r\/hardwareswap\s/)
    expect(r.out).toMatch(/\n2\s+deals\s+reddit\s+yes\s+BuildAPCSales\s+r\/buildapcsales\s/)
  }, 30_000)

  test('test a feed: one fetch in this process, the parsed posts and their classification, nothing stored; a failed fetch exits 1 with the reason', async () => {
    const add = await cli('add', '--forum', 'accessories', '--preset', 'forum-classifieds', '--url', forums.url + forums.paths.xenforo, '--disabled')
    expect(add.err).toBe('')
    expect(add.out).toContain('added source 3: Classifieds (accessories, feed, disabled)')
    const r = await cli('test', '3')
    expect(r.err).toBe('')
    expect(r.code).toBe(0)
    const lines = r.out.trimEnd().split('\n')
    expect(lines[0]).toMatch(/^source 3: 3 post\(s\) read from "Classifieds - Optics", xenforo; nothing stored$/)
    expect(lines.slice(2).map((l) => l.split(/\s{2,}/)[0])).toEqual(['WTS (for sale)', 'WTB (wanted)', 'WTS (for sale)'].reverse())
    expect(r.out).toMatch(/\nWTS \(for sale\)\s+\$650\s+-\s+open\s+WTS: Aimpoint T2 with LaRue LT660 mount - \$650 shipped\n/)
    const db = new Database(join(dir, 'dibs.db'), { readonly: true })
    try {
      expect(db.query('SELECT count(*) AS n FROM posts').get()).toEqual({ n: 0 })
      expect(db.query("SELECT count(*) AS n FROM audit_log WHERE action LIKE 'source.%'").get()).toEqual({ n: 1 }) // the add; the test none
    } finally {
      db.close()
    }

    forums.block()
    const blocked = await cli('test', '3')
    expect(blocked.code).toBe(1)
    expect(blocked.err).toMatch(/^sources failed: .*403/)
    expect((await cli('test', '1')).code).toBe(1) // Reddit is not reachable from this test's CLI either: a reason, not a crash
  }, 60_000)
})

describe("the README's push client (docs/examples/push.sh)", () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let dir: string
  beforeAll(async () => {
    server = await startTestServer()
    dir = mkdtempSync(join(tmpdir(), 'dibs-push-'))
  })
  afterAll(async () => {
    await server.stop()
    rmSync(dir, { recursive: true, force: true })
  })

  test('the README shows the script as it is', () => {
    const script = readFileSync(join(import.meta.dir, '../../docs/examples/push.sh'), 'utf8')
    const readme = readFileSync(join(import.meta.dir, '../../README.md'), 'utf8')
    expect(readme.includes('```bash\n' + script + '```')).toBe(true)
  })

  test('it pushes a signed batch to a source made by dibs sources add; a post pushed again is a duplicate; the old secret after a rotation is refused', async () => {
    const env = { DATA_DIR: server.config.dataDir, APP_URL: server.deps.config.appUrl }
    const add = await spawnCli(['sources', 'add', '--forum', 'accessories', '--kind', 'push', '--name', 'My scraper'], env)
    const ingestUrl = /ingest URL: (\S+)/.exec(add.out)![1]!
    const secret = /secret: (\S+)/.exec(add.out)![1]!
    const file = join(dir, 'posts.json')
    const now = Math.floor(Date.now() / 1000)
    writeFileSync(
      file,
      JSON.stringify({ posts: [{ id: 'abc1', title: '[WTS] Aimpoint T-2 - $640', url: 'https://example.com/t/abc1', author: 'pat', created_utc: now }] }),
    )
    const push = async (key: string) => {
      const p = Bun.spawn(['bash', join(import.meta.dir, '../../docs/examples/push.sh'), file], {
        env: { PATH: process.env.PATH ?? '', DIBS_INGEST_URL: ingestUrl, DIBS_SECRET: key },
        stdout: 'pipe',
        stderr: 'pipe',
      })
      const [out, err, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited])
      return { out, err, code }
    }
    const first = await push(secret)
    expect(first.err).toBe('')
    expect(first.code).toBe(0)
    expect(JSON.parse(first.out)).toEqual({ received: 1, stored: 1, duplicates: 0, matches: 0, posts: [{ id: 'abc1', stored: true }] })
    const id = Number(/api\/ingest\/(\d+)/.exec(ingestUrl)![1])
    expect(server.deps.sqlite.query('SELECT title, source_id FROM posts WHERE reddit_id = ?').get(`p${id}_abc1`)).toEqual({
      title: '[WTS] Aimpoint T-2 - $640',
      source_id: id,
    })
    expect(JSON.parse((await push(secret)).out)).toMatchObject({ received: 1, stored: 0, duplicates: 1 })

    const rotated = await spawnCli(['sources', 'rotate-secret', String(id)], env)
    const next = /secret: (\S+)/.exec(rotated.out)![1]!
    const old = await push(secret)
    expect(old.code).toBe(22) // curl --fail-with-body: the answer is printed, the exit code says it failed
    expect(JSON.parse(old.out).error).toMatchObject({ code: 'BAD_SIGNATURE' })
    expect((await push(next)).code).toBe(0)

    await spawnCli(['sources', 'disable', String(id)], env)
    const disabled = await push(next)
    expect(disabled.code).toBe(22)
    expect(JSON.parse(disabled.out).error).toMatchObject({ code: 'SOURCE_DISABLED' })
  }, 60_000)
})
