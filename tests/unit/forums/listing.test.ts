import { describe, expect, test } from 'bun:test'
import { MalformedListingError, parseListing, parseListingText } from '../../../src/forums/listing.ts'

const fixture = (name: string) => Bun.file(new URL(`../../fixtures/reddit/${name}.json`, import.meta.url)).json()

describe('parsing a Reddit listing', () => {
  test('the accessories page yields every post newest first with our fields', async () => {
    const listing = parseListing(await fixture('gafs-new'))
    expect(listing.posts).toHaveLength(16)
    expect(listing.skipped).toBe(0)
    const times = listing.posts.map((p) => p.createdAt.getTime())
    expect(times).toEqual([...times].sort((a, b) => b - a))
    const oldest = listing.posts.at(-1)!
    expect(oldest.title).toBe('[WTS] Aimpoint T-2 w/ LaRue LT660 mount - $640 shipped')
    expect(oldest.redditId).toMatch(/^[a-z0-9]+$/)
    expect(oldest.name).toBe(`t3_${oldest.redditId}`)
    expect(oldest.url).toStartWith('https://www.reddit.com/r/GunAccessoriesForSale/comments/')
    expect(oldest.subreddit).toBe('GunAccessoriesForSale')
    expect(oldest.flair).toBe('WTS')
    expect(oldest.author).toBe('range_day_rick')
    expect(oldest.content).toContain('PayPal F&F') // raw_json=1: no &amp;
    expect(oldest.createdAt.toISOString()).toBe('2025-11-20T12:00:00.000Z')
    expect(listing.after).toBe(oldest.name)
  })

  test('a deal keeps the shop link apart from the discussion url', async () => {
    const listing = parseListing(await fixture('gundeals-new'))
    expect(listing.posts).toHaveLength(10)
    const holosun = listing.posts.find((p) => p.title.startsWith('[Optic] Holosun'))!
    expect(holosun.linkUrl).toBe('https://shop.example-optics.com/holosun-507c-x2')
    expect(holosun.url).toStartWith('https://www.reddit.com/r/gundeals/comments/')
    expect(holosun.content).toBe('')
    expect(holosun.flair).toBeNull()
    expect(listing.after).toBeNull()
  })

  test('the multireddit page mixes both forums', async () => {
    const listing = parseListing(await fixture('multi-new'))
    expect(new Set(listing.posts.map((p) => p.subreddit))).toEqual(new Set(['GunAccessoriesForSale', 'gundeals']))
    expect(listing.posts).toHaveLength(20)
  })

  test('children that are not posts are skipped, broken posts are counted', () => {
    const listing = parseListing({
      kind: 'Listing',
      data: {
        after: null,
        children: [
          { kind: 't1', data: { id: 'c1', body: 'a comment' } },
          { kind: 't3', data: { id: 'abc12', title: 'ok', subreddit: 'gundeals', created_utc: 1700000000, permalink: '/r/gundeals/comments/abc12/ok/' } },
          { kind: 't3', data: { id: 'abc13', subreddit: 'gundeals', created_utc: 1700000000 } },
          { kind: 't3', data: { id: 'abc14', title: 'no time', subreddit: 'gundeals' } },
          { kind: 't3', data: { id: '../x', title: 'bad id', subreddit: 'gundeals', created_utc: 1 } },
          { kind: 't3', data: null },
          'junk',
        ],
      },
    })
    expect(listing.posts.map((p) => p.redditId)).toEqual(['abc12'])
    expect(listing.posts[0]!.author).toBe('[deleted]')
    expect(listing.posts[0]!.linkUrl).toBe(listing.posts[0]!.url)
    expect(listing.skipped).toBe(4)
  })

  test('an empty flair becomes null and the title is trimmed', () => {
    const { posts } = parseListing({
      kind: 'Listing',
      data: { after: null, children: [{ kind: 't3', data: { id: 'q1', title: '  [WTB] mags ', subreddit: 'X', created_utc: 1.7e9, link_flair_text: '  ' } }] },
    })
    expect(posts[0]!.flair).toBeNull()
    expect(posts[0]!.title).toBe('[WTB] mags')
  })

  const one = (data: Record<string, unknown>) =>
    parseListing({
      kind: 'Listing',
      data: { after: null, children: [{ kind: 't3', data: { id: 'q1', title: 't', subreddit: 'hardwareswap', created_utc: 1.7e9, ...data } }] },
    }).posts[0]!

  test("a crosspost's relative link becomes an absolute www.reddit.com URL", () => {
    const post = one({ url: '/r/hardwareswap/comments/1abc2d/usaca_h_rtx_3080_w_paypal/', permalink: '/r/buildapcsales/comments/q1/x/' })
    expect(post.linkUrl).toBe('https://www.reddit.com/r/hardwareswap/comments/1abc2d/usaca_h_rtx_3080_w_paypal/')
    expect(post.url).toBe('https://www.reddit.com/r/buildapcsales/comments/q1/x/')
  })

  const links: [string, string | null][] = [
    ['https://shop.example.com/x', 'https://shop.example.com/x'],
    ['/r/watchexchange/comments/abc/x/', 'https://www.reddit.com/r/watchexchange/comments/abc/x/'],
    [' /r/mechmarket/comments/abc/ ', 'https://www.reddit.com/r/mechmarket/comments/abc/'],
    ['//evil.example/x', null], // protocol-relative: not Reddit's, not kept
    ['javascript:alert(1)', null],
    ['not a url', null],
  ]
  for (const [url, expected] of links)
    test(`link url ${JSON.stringify(url)} → ${expected ?? 'the discussion url'}`, () => {
      const post = one({ url })
      expect(post.linkUrl).toBe(expected ?? post.url)
    })

  test("the author's flair is read ('Trades: 12'); empty is null", () => {
    expect(one({ author_flair_text: ' Trades: 12 ' }).authorFlair).toBe('Trades: 12')
    expect(one({ author_flair_text: '' }).authorFlair).toBeNull()
    expect(one({}).authorFlair).toBeNull()
    expect(one({ author_flair_text: 7 }).authorFlair).toBeNull()
  })

  const malformed: [string, unknown][] = [
    ['null', null],
    ['an array', []],
    ['a string', 'Listing'],
    ['a t3 instead of a Listing', { kind: 't3', data: {} }],
    ['a Listing without data', { kind: 'Listing' }],
    ['a Listing without children', { kind: 'Listing', data: { after: null } }],
    ['children not an array', { kind: 'Listing', data: { children: {} } }],
    ['after of the wrong type', { kind: 'Listing', data: { children: [], after: 5 } }],
    ['a Reddit error object', { message: 'Forbidden', error: 403 }],
  ]
  for (const [what, body] of malformed)
    test(`${what} is a MalformedListingError`, () => {
      expect(() => parseListing(body)).toThrow(MalformedListingError)
    })

  test('an HTML page instead of JSON is a MalformedListingError', () => {
    expect(() => parseListingText('<!doctype html><html><title>reddit.com: over capacity</title></html>')).toThrow(MalformedListingError)
    expect(() => parseListingText('{"kind": "Listing", "data": {"chil')).toThrow(MalformedListingError)
  })
})
