// The feed reader on each forum's shape (rendered by tests/fakes/forum-feeds.ts, modelled on the real
// samples), each date form, dedupe, relative links, and hostile documents: every one either reads
// right or is refused with a named error, with bounded work.
import { describe, expect, test } from 'bun:test'
import { parseFeedDate } from '../../../src/sources/feed-date'
import { MAX_FEED_BYTES, NotAFeedError, parseFeed } from '../../../src/sources/feed-parse'
import {
  BLOCK_PAGE,
  renderDiscourseJson,
  renderDiscourseRss,
  renderJsonFeed,
  renderPhpbb,
  renderVbulletin,
  renderXenForo,
  type FeedPost,
} from '../../fakes/forum-feeds'

const BASE = 'https://forum.example.com'
const NOW = Date.UTC(2026, 10, 27, 18, 0, 0)
const AT = Date.UTC(2026, 10, 27, 15, 4, 5)
const post = (over: Partial<FeedPost> = {}): FeedPost => ({
  id: 4321,
  title: 'WTS: Aimpoint T2 with LaRue mount - $650 shipped',
  author: 'RangeRat',
  html: 'Like new &amp; boxed.<br />\nPayPal F&amp;F.<script>alert(1)</script> <a href="javascript:alert(2)">details</a>',
  createdAt: AT,
  category: 'Optics',
  ...over,
})
const parse = (text: string | Uint8Array, url = `${BASE}/feed`) => parseFeed(text, { url, now: NOW })
const refusal = (text: string | Uint8Array) => {
  try {
    parse(text)
  } catch (e) {
    if (e instanceof NotAFeedError) return e
    throw e
  }
  throw new Error('expected NotAFeedError')
}

describe('each forum package and format reads into the same item shape', () => {
  test('XenForo 2 RSS 2.0: thread URL as guid and link, dc:creator, content:encoded as text; XenForo told by its links', () => {
    const feed = parse(renderXenForo(BASE, [post()]))
    expect(feed.format).toBe('rss2')
    expect(feed.software).toEqual({ name: 'xenforo', evidence: 'thread links /threads/<slug>.<id>/' })
    const [item] = feed.items
    expect(item).toMatchObject({
      guid: `${BASE}/threads/wts-aimpoint-t2-with-larue-mount-650-shipped.4321/`,
      url: `${BASE}/threads/wts-aimpoint-t2-with-larue-mount-650-shipped.4321/`,
      title: 'WTS: Aimpoint T2 with LaRue mount - $650 shipped',
      author: 'RangeRat',
      publishedAt: AT,
      note: null,
    })
    expect(item!.body).toBe('Like new & boxed.\nPayPal F&F. details\n\nRead more')
  })

  test('phpBB Atom: HTML title in CDATA without its "Forum • " prefix, category label, xml:base, -07:00 offsets; phpBB told by its post trailer', () => {
    const feed = parse(renderPhpbb(BASE, [post({ category: 'Classifieds' })]))
    expect(feed.format).toBe('atom')
    expect(feed.software?.name).toBe('phpbb')
    const [item] = feed.items
    expect(item).toMatchObject({ title: 'WTS: Aimpoint T2 with LaRue mount - $650 shipped', author: 'RangeRat', publishedAt: AT, categories: ['Classifieds'] })
    expect(item!.url).toBe(`${BASE}/viewtopic.php?t=4321&p=43210#p43210`)
    expect(item!.body).toStartWith('Like new & boxed.\nPayPal F&F. details')
    expect(item!.body).toContain('Statistics: Posted by RangeRat')
  })

  test('Discourse RSS: namespace names the software, guid is not a permalink, @-less creator', () => {
    const feed = parse(renderDiscourseRss(BASE, [post({ html: '<p>Titanium housing.</p>\n<p>Shipped CONUS.</p>' })]))
    expect(feed.software).toEqual({ name: 'discourse', evidence: 'the discourse: namespace' })
    expect(feed.items[0]).toMatchObject({
      guid: 'forum.example.com-topic-4321',
      url: `${BASE}/t/wts-aimpoint-t2-with-larue-mount-650-shipped/4321`,
      categories: ['Optics'],
      publishedAt: AT,
    })
    expect(feed.items[0]!.body).toBe('Titanium housing.\n\nShipped CONUS.\n\nRead full topic')
  })

  test('Discourse latest.json: topic URLs built on the feed address, the original poster from users[]', () => {
    const feed = parse(renderDiscourseJson([post(), post({ id: 4322, author: 'lowlight', title: '[WTB] Unity FAST riser' })], false), `${BASE}/latest.json`)
    expect(feed.format).toBe('discourse-json')
    expect(feed.software?.name).toBe('discourse')
    expect(feed.items.map((i) => [i.guid, i.url, i.author, i.publishedAt])).toEqual([
      ['topic-4321', `${BASE}/t/wts-aimpoint-t2-with-larue-mount-650-shipped/4321`, 'RangeRat', AT],
      ['topic-4322', `${BASE}/t/wtb-unity-fast-riser/4322`, 'lowlight', AT],
    ])
  })

  test('vBulletin external.php RSS2: generator names it; CDATA title; showthread link', () => {
    const feed = parse(renderVbulletin(BASE, [post()]))
    expect(feed.software).toEqual({ name: 'vbulletin', evidence: 'generator "vBulletin"' })
    expect(feed.items[0]).toMatchObject({
      title: post().title,
      url: `${BASE}/showthread.php?4321-wts-aimpoint-t2-with-larue-mount-650-shipped&goto=newpost`,
      author: 'RangeRat',
      publishedAt: AT,
      categories: ['Optics'],
    })
  })

  test('JSON Feed 1.1: relative url resolved against feed_url, authors[], tags, content_html as text', () => {
    const feed = parse(renderJsonFeed(BASE, [post()]))
    expect(feed.format).toBe('jsonfeed')
    expect(feed.items[0]).toMatchObject({
      guid: `${BASE}/deals/4321`,
      url: `${BASE}/deals/4321-wts-aimpoint-t2-with-larue-mount-650-shipped`,
      author: 'RangeRat',
      publishedAt: AT,
      categories: ['Optics'],
    })
  })

  test('JSON Feed 1.0: author object, content_text kept as written, date_modified when unpublished', () => {
    const doc = {
      version: 'https://jsonfeed.org/version/1',
      title: 'x',
      author: { name: 'Deals desk' },
      items: [{ id: '7', url: 'https://deals.example/7', content_text: 'Line one\nLine &amp; two', date_modified: '2026-11-27T15:04:05Z' }],
    }
    const [item] = parse(JSON.stringify(doc)).items
    expect(item).toMatchObject({ title: 'Line one', body: 'Line one\nLine &amp; two', author: 'Deals desk', publishedAt: AT })
  })

  test('RSS 1.0 (RDF): rdf:about as guid, dc:date, dc:creator', () => {
    const rdf = `<?xml version="1.0"?><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/" xmlns:dc="http://purl.org/dc/elements/1.1/">
      <channel rdf:about="${BASE}/"><title>Board</title><link>${BASE}/</link></channel>
      <item rdf:about="${BASE}/t/1"><title>WTB Surefire M600DF</title><link>/t/1</link><dc:date>2026-11-27T15:04:05Z</dc:date><dc:creator>nightshift</dc:creator><description>Black &lt;b&gt;preferred&lt;/b&gt;</description></item>
    </rdf:RDF>`
    const feed = parse(rdf)
    expect(feed.format).toBe('rss1')
    expect(feed.items[0]).toMatchObject({ guid: `${BASE}/t/1`, url: `${BASE}/t/1`, author: 'nightshift', publishedAt: AT, body: 'Black preferred' })
  })

  test('an empty board is an empty list, not an error', () => {
    expect(parse(renderXenForo(BASE, [])).items).toEqual([])
    expect(parse(renderDiscourseJson([], false)).items).toEqual([])
  })
})

describe('dates: every form feeds use', () => {
  const cases: [string, number | null][] = [
    ['Fri, 27 Nov 2026 15:04:05 +0000', AT],
    ['Fri, 27 Nov 2026 15:04:05 GMT', AT],
    ['27 Nov 2026 15:04:05 UT', AT],
    ['Fri, 27 Nov 2026 10:04:05 EST', AT],
    ['Fri, 27 Nov 2026 08:04:05 PDT', AT],
    ['Fri, 27 Nov 2026 16:04:05 CET', AT],
    ['Fri, 27 Nov 2026 15:04 GMT', AT - 5000],
    ['Fri, 27 Nov 26 15:04:05 Z', AT],
    ['Friday, 27 November 2026 15:04:05 +0000', AT],
    ['Fri, 27 Nov 2026 15:04:05', AT],
    ['2026-11-27T15:04:05Z', AT],
    ['2026-11-27T08:04:05-07:00', AT],
    ['2026-11-27T15:04:05.123+00:00', AT + 123],
    ['2026-11-27 15:04:05+0000', AT],
    ['2026-11-27T15:04:05', AT],
    ['2026-11-27', Date.UTC(2026, 10, 27)],
    ['Sun, 16 Dec 2012 1:2:3:4 GMT', null],
    ['Sun, 99 Jun 2009 12:00:00 GMT', null],
    ['2026-02-31T00:00:00Z', null],
    ['Fri, 27 Nov 2026 15:04:05 XYZ', null],
    ['yesterday', null],
    ['', null],
  ]
  for (const [text, want] of cases)
    test(`${JSON.stringify(text)} → ${want === null ? 'null' : new Date(want).toISOString()}`, () => expect(parseFeedDate(text)).toBe(want))

  const rssWithDate = (date: string | null) =>
    `<rss version="2.0"><channel><title>b</title><item><title>WTS RMR</title><link>${BASE}/t/1</link>${date === null ? '' : `<pubDate>${date}</pubDate>`}</item></channel></rss>`

  test('an unreadable date keeps the item, publishedAt null, and says so', () => {
    const [item] = parse(rssWithDate('Sun, 99 Jun 2009 12:00:00 GMT')).items
    expect(item).toMatchObject({ publishedAt: null, note: 'its date "Sun, 99 Jun 2009 12:00:00 GMT" could not be read' })
  })

  test('no date: kept, said', () => expect(parse(rssWithDate(null)).items[0]!.note).toBe('the item has no date'))

  test('a future date is read as the fetch time, and said', () => {
    const [item] = parse(rssWithDate('Sat, 28 Nov 2026 18:00:00 GMT')).items
    expect(item!.publishedAt).toBe(NOW)
    expect(item!.note).toContain('in the future; read as the fetch time')
  })
})

describe('links and dedupe', () => {
  test('relative links resolve against xml:base, then the feed URL; javascript: never becomes a link', () => {
    const atom = `<feed xmlns="http://www.w3.org/2005/Atom" xml:base="${BASE}/board/">
      <entry><id>a</id><title>WTS one</title><link href="t/1"/><updated>2026-11-27T15:04:05Z</updated></entry>
      <entry xml:base="https://other.example/x/"><id>b</id><title>WTS two</title><link href="../t/2"/><updated>2026-11-27T15:04:05Z</updated></entry>
      <entry><id>c</id><title>WTS three</title><link href="javascript:alert(1)"/><updated>2026-11-27T15:04:05Z</updated></entry>
    </feed>`
    const items = parse(atom, 'https://feeds.example/atom').items
    expect(items.map((i) => i.url)).toEqual([`${BASE}/board/t/1`, 'https://other.example/t/2', null])
    expect(items[2]!.note).toContain('no http(s) link')
    const rss = `<rss version="2.0"><channel><item><title>x</title><link>/threads/x.1/</link></item></channel></rss>`
    expect(parse(rss, `${BASE}/forums/f.2/index.rss`).items[0]!.url).toBe(`${BASE}/threads/x.1/`)
  })

  test('deduplicated by guid, then by link; the first (newest) wins; no guid falls back to the link', () => {
    const item = (guid: string | null, link: string, title: string) =>
      `<item><title>${title}</title><link>${link}</link>${guid ? `<guid>${guid}</guid>` : ''}</item>`
    const rss = `<rss version="2.0"><channel>${[
      item('g1', `${BASE}/t/1`, 'first'),
      item('g1', `${BASE}/t/1-edited`, 'same guid'),
      item('g2', `${BASE}/t/1`, 'same link'),
      item(null, `${BASE}/t/3`, 'no guid'),
      item(null, `${BASE}/t/3`, 'no guid again'),
    ].join('')}</channel></rss>`
    const feed = parse(rss)
    expect(feed.items.map((i) => [i.guid, i.title])).toEqual([
      ['g1', 'first'],
      [`${BASE}/t/3`, 'no guid'],
    ])
    expect(feed.duplicates).toBe(3)
  })

  test('body: scripts, styles and javascript: hrefs never pass; entities decoded once; line breaks kept', () => {
    const html =
      '<p>Mint &amp;amp; boxed</p><script>steal()</script><style>p{}</style><p>Line<br/>two <a href="javascript:evil()">click</a></p><img src=x onerror=alert(1)>'
    const rss = `<rss version="2.0"><channel><item><title>t</title><link>${BASE}/1</link><description>${html.replace(/&/g, '&amp;').replace(/</g, '&lt;')}</description></item></channel></rss>`
    const body = parse(rss).items[0]!.body
    expect(body).toBe('Mint &amp; boxed\n\nLine\ntwo click')
    expect(body).not.toContain('javascript')
    expect(body).not.toContain('steal')
  })
})

describe('not a feed: a named error an admin understands', () => {
  test('the Cloudflare block page served instead of a XenForo feed', () => {
    const e = refusal(BLOCK_PAGE)
    expect(e.reason).toBe('blocked')
    expect(e.message).toContain('bot-protection block page ("Attention Required! | Cloudflare")')
  })

  test('an ordinary web page', () => {
    const e = refusal('<!DOCTYPE html><html><head><title>Gun Trader Forum - Classifieds</title></head><body>Hi</body></html>')
    expect([e.reason, e.message]).toEqual([
      'html',
      'Not a feed: the address returned a web page ("Gun Trader Forum - Classifieds"), not RSS, Atom or JSON Feed. Open the forum and copy the address of its RSS link',
    ])
  })

  test('an XHTML page, XML declaration and all, is a web page, not a refused DTD', () => {
    const e = refusal(
      '<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-strict.dtd">\n<html xmlns="http://www.w3.org/1999/xhtml"><head><title>Board index</title></head></html>',
    )
    expect([e.reason, e.message]).toEqual(['html', expect.stringContaining('a web page ("Board index")')])
  })

  test('empty documents, only whitespace, only a comment', () => {
    for (const text of ['', '  \n', '<?xml version="1.0"?>\n<!-- nothing -->\n']) expect(refusal(text).reason).toBe('empty')
  })

  test('other JSON, other XML, plain text, broken XML', () => {
    expect(refusal('{"error": "not found"}').reason).toBe('json')
    expect(refusal('<note><to>x</to></note>').message).toContain('root is <note>')
    expect(refusal('Service temporarily unavailable').reason).toBe('unknown')
    expect(refusal('<rss version="2.0"><channel><item><title><![CD').reason).toBe('malformed')
  })
})

describe('hostile documents: refused or bounded', () => {
  const entry = (title: string) => `<rss version="2.0"><channel><item><title>${title}</title><link>${BASE}/1</link></item></channel></rss>`

  test('entity bomb, external entity (XXE) and any DTD are refused before parsing', () => {
    const bomb = `<?xml version="1.0"?><!DOCTYPE rss [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">]>${entry('&c;')}`
    const xxe = `<?xml version="1.0"?><!DOCTYPE rss [<!ENTITY x SYSTEM "file:///etc/passwd">]>${entry('&x;')}`
    const param = `<?xml version="1.0"?><!DOCTYPE rdf:RDF [<!ENTITY % HTMLlat1 PUBLIC "-//W3C//ENTITIES Latin 1 for XHTML//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml-lat1.ent"> %HTMLlat1;]>${entry('x')}`
    const dtd = `<?xml version="1.0"?><!DOCTYPE rss PUBLIC "-//Netscape Communications//DTD RSS 0.91//EN" "http://my.netscape.com/publish/formats/rss-0.91.dtd">${entry('x')}`
    for (const doc of [bomb, xxe, param, dtd]) {
      const e = refusal(doc)
      expect([e.reason, e.message]).toEqual(['refused', 'Not a readable feed: the feed declares a DTD or entities, which Dibs refuses to read'])
    }
  })

  test('an undeclared entity is a well-formedness error, never expanded', () => {
    expect(refusal(entry('&passwd;')).reason).toBe('malformed')
  })

  test('invalid UTF-8 is refused; a declared legacy encoding is honoured', () => {
    const bad = new Uint8Array([
      ...new TextEncoder().encode('<?xml version="1.0" encoding="utf-8"?><rss version="2.0"><channel><item><title>J'),
      0xfc,
      ...new TextEncoder().encode(`rgen</title><link>${BASE}/1</link></item></channel></rss>`),
    ])
    expect(refusal(bad).reason).toBe('encoding')
    const latin = new Uint8Array([
      ...new TextEncoder().encode('<?xml version="1.0" encoding="ISO-8859-1"?><rss version="2.0"><channel><item><title>J'),
      0xfc,
      ...new TextEncoder().encode(`rgen</title><link>${BASE}/1</link></item></channel></rss>`),
    ])
    expect(parse(latin).items[0]!.title).toBe('Jürgen')
  })

  test('6 MB is refused as text and as bytes, before any parsing', () => {
    const big = `<rss version="2.0"><channel>${'<item><title>WTS</title></item>'.repeat(Math.ceil((6 * 1024 * 1024) / 31))}</channel></rss>`
    expect(big.length).toBeGreaterThan(MAX_FEED_BYTES)
    expect(refusal(big).reason).toBe('too_big')
    expect(refusal(new TextEncoder().encode(big)).message).toBe('Not read: the feed is larger than 5 MB')
  })

  test('deep nesting and huge element counts hit the XML caps', () => {
    expect(refusal(`<rss>${'<a>'.repeat(100)}${'</a>'.repeat(100)}</rss>`).message).toContain('nests deeper than 64')
    expect(refusal(`<rss version="2.0"><channel>${'<i/>'.repeat(60_000)}</channel></rss>`).message).toContain('more than 50000 elements')
  })
})
