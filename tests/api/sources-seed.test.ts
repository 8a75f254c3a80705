// Sources seeded on first start (issue 25 §1, §4): the configured subreddits, or FORUM_PRESET's pair (its labels
// follow: PRODUCT_NAME is the preset's short name unless set), a feed preset added disabled for the admin to
// complete, a bad FORUM_PRESET refused at start, and never seeded twice. Then every preset of
// src/sources/presets.json: a source made from it is accepted, and a real title of its market, arriving through
// that source (the Reddit fake or the forum feeds fake), is stored with the classification its table says
// (tests/fixtures/presets/titles.json).
import { describe, expect, test } from 'bun:test'
import { ConfigError } from '../../src/config'
import { runScan } from '../../src/scanner/scan'
import { addSource, editSource, removeSource } from '../../src/scanner/source-admin'
import { PRESETS, presetByName } from '../../src/sources/presets'
import { listSources, readSourceInput } from '../../src/sources/store'
import { sourceView } from '../../src/sources/view'
import { TITLE_ROWS, TITLE_SOURCES, titleOf, type TitleRow } from '../fixtures/presets/titles'
import { startForumFeeds } from '../fakes/forum-feeds'
import { fakeRedditClient, startFakeReddit } from '../fakes/reddit'
import { makeConfig, makeDeps, tempDir, testClock } from '../helpers'

const label = (preset: string) => presetByName(preset)!.label
const seeded = async (env: Record<string, string>) => {
  const deps = makeDeps(env)
  try {
    return { sources: (await listSources(deps)).map((s) => ({ ...s, view: sourceView(deps, s) })), config: deps.config }
  } finally {
    deps.close()
  }
}
const brief = (s: { kind: string; forum: string; name: string; subreddits: string[]; url: string | null; preset: string | null; enabled: boolean }) => [
  s.kind,
  s.forum,
  s.name,
  s.subreddits.join(','),
  s.url,
  s.preset,
  s.enabled,
]

describe('first start', () => {
  test('the configured subreddits become two reddit sources named after them', async () => {
    const { sources } = await seeded({ ACCESSORIES_SUBREDDIT: 'AVexchange', DEALS_SUBREDDIT: 'GameDeals' })
    expect(sources.map(brief)).toEqual([
      ['reddit', 'accessories', 'r/AVexchange', 'AVexchange', null, null, true],
      ['reddit', 'deals', 'r/GameDeals', 'GameDeals', null, null, true],
    ])
  })
  test("without any: the spec's pair", async () => {
    expect((await seeded({})).sources.map((s) => s.name)).toEqual(['r/GunAccessoriesForSale', 'r/gundeals'])
  })
  test('FORUM_PRESET=hardware: r/hardwareswap and r/buildapcsales, and PRODUCT_NAME follows (HWS) unless set', async () => {
    const { sources, config } = await seeded({ FORUM_PRESET: 'hardware' })
    expect(sources.map(brief)).toEqual([
      ['reddit', 'accessories', label('hardwareswap'), 'hardwareswap', null, 'hardwareswap', true],
      ['reddit', 'deals', label('buildapcsales'), 'buildapcsales', null, 'buildapcsales', true],
    ])
    expect(sources.map((s) => s.view.presetTitle)).toEqual(['r/hardwareswap', 'r/buildapcsales'])
    expect([config.productName, config.forums]).toEqual(['HWS', { accessories: 'hardwareswap', deals: 'buildapcsales' }])
    expect((await seeded({ FORUM_PRESET: 'Hardware', PRODUCT_NAME: 'PCX' })).config.productName).toBe('PCX')
  })
  test('FORUM_PRESET=gun-classifieds: the feed preset is added disabled (its address is the admin’s to give), r/gundeals enabled', async () => {
    const { sources } = await seeded({ FORUM_PRESET: 'gun-classifieds' })
    expect(sources.map(brief)).toEqual([
      ['feed', 'accessories', label('forum-classifieds'), '', null, 'forum-classifieds', false],
      ['reddit', 'deals', label('gundeals'), 'gundeals', null, 'gundeals', true],
    ])
    expect(sources[0]!.view.health.state).toBe('disabled')
  })
  test('a FORUM_PRESET that is no pair fails at start with a clear ConfigError', () => {
    let error: unknown
    try {
      makeConfig({ FORUM_PRESET: 'guns-and-roses' })
    } catch (e) {
      error = e
    }
    expect(error).toBeInstanceOf(ConfigError)
    expect((error as Error).message).toBe('FORUM_PRESET: expected a preset pair (dibs sources presets lists them), got "guns-and-roses"')
  })
  test('a second start does not seed again, even after every source was removed', async () => {
    const dir = tempDir()
    const first = makeDeps({ DATA_DIR: dir, FORUM_PRESET: 'keyboards' })
    for (const s of await listSources(first)) await removeSource(first, s.id)
    const second = makeDeps({ DATA_DIR: dir, FORUM_PRESET: 'keyboards' })
    try {
      expect(await listSources(second)).toEqual([])
      // nor with other settings: the table is the admins' now
      const third = makeDeps({ DATA_DIR: dir, ACCESSORIES_SUBREDDIT: 'mechmarket' })
      expect(await listSources(third)).toEqual([])
      third.sqlite.close()
    } finally {
      second.sqlite.close()
      first.close()
    }
  })
})

/** The first row of the preset's table from a real recording (else the first row), whose code the forum can show. */
function rowFor(name: string, forum: 'accessories' | 'deals'): TitleRow {
  const rows = TITLE_ROWS[name]!
  const usable = forum === 'deals' ? rows : rows.filter((r) => r.code === 'wts' || r.code === 'wtb')
  return usable.find((r) => TITLE_SOURCES[r.src]!.real) ?? usable[0]!
}

describe('each preset: a source made from it is accepted and classifies a real title of its market', () => {
  test('every preset is accepted by the checks of a new source (a feed preset with the board’s address)', () => {
    for (const p of PRESETS.presets) {
      const r = readSourceInput({ preset: p.name, ...(p.kind === 'feed' ? { url: 'https://forum.example/forums/classifieds.12/index.rss' } : {}) })
      expect([p.name, r.ok && r.value.kind, r.ok && r.value.forum, r.ok && r.value.name]).toEqual([p.name, p.kind, p.forum, p.label])
      // without the board's address a feed preset names what is missing
      if (p.kind === 'feed') expect(readSourceInput({ preset: p.name })).toMatchObject({ ok: false, field: 'url' })
    }
  })

  test('reddit presets: each source gets a real title of its market through the Reddit fake, stored with its classification', async () => {
    const clock = testClock()
    const fake = await startFakeReddit({ now: () => clock.now().getTime() })
    const deps = makeDeps({ REDDIT_BASE_URL: fake.url }, clock, { source: fakeRedditClient(fake, { clock }) })
    try {
      for (const s of await listSources(deps)) await removeSource(deps, s.id, deps.feeds)
      const want: [string, string, string, string | null][] = []
      for (const p of PRESETS.presets) {
        if (p.kind !== 'reddit') continue
        const { source } = await addSource(deps, { preset: p.name }, deps.feeds)
        expect([p.name, source.subreddits, source.forum]).toEqual([p.name, [p.subreddit], p.forum])
        const row = rowFor(p.name, p.forum)
        const title = titleOf(row)
        fake.publish({ subreddit: p.subreddit, title })
        want.push([p.label, p.subreddit, title, p.forum === 'deals' ? 'gd' : row.code])
      }
      clock.advance(120_000)
      const outcome = await runScan(deps, deps.source)
      expect(outcome).toMatchObject({ status: 'success', requests: 1, postsNew: want.length })
      const rows = deps.sqlite
        .query<{ source_name: string; subreddit: string; title: string; post_type: string | null }, []>(
          'SELECT source_name, subreddit, title, post_type FROM posts',
        )
        .all()
      const got = new Map(rows.map((r) => [r.subreddit, [r.source_name, r.subreddit, r.title, r.post_type]]))
      for (const w of want) expect(got.get(w[1])).toEqual(w)
    } finally {
      deps.close()
      await fake.stop()
    }
  })

  test('the forum classifieds preset: a board feed (XenForo) with classified titles, each stored with its classification', async () => {
    const clock = testClock()
    const forums = await startForumFeeds({ now: () => clock.now().getTime() })
    const deps = makeDeps({ FORUM_PRESET: 'gun-classifieds', ALLOW_PRIVATE_SOURCES: '1' }, clock)
    try {
      const seededFeed = (await listSources(deps)).find((s) => s.kind === 'feed')!
      // the admin completes the seeded source: the board's address, enabled
      const url = forums.url + forums.paths.xenforo
      expect((await editSource(deps, seededFeed.id, { url, enabled: true }, deps.feeds)).enabled).toBe(true)
      const rows = TITLE_ROWS['forum-classifieds']!
      for (const r of rows) forums.publish('xenforo', { title: titleOf(r) })
      const [outcome] = await deps.feeds.tick()
      expect(outcome).toMatchObject({ status: 'ok' })
      const stored = new Map(
        deps.sqlite
          .query<{ title: string; post_type: string | null; state: string; source_name: string }, [number]>(
            'SELECT title, post_type, state, source_name FROM posts WHERE source_id = ?',
          )
          .all(seededFeed.id)
          .map((p) => [p.title, p]),
      )
      for (const r of rows) {
        const title = titleOf(r)
        expect([title, stored.get(title)?.post_type, stored.get(title)?.state, stored.get(title)?.source_name]).toEqual([
          title,
          r.code === 'wts' || r.code === 'wtb' ? r.code : null,
          r.state,
          label('forum-classifieds'),
        ])
      }
    } finally {
      deps.close()
      await forums.stop()
    }
  })
})
