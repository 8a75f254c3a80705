// Forum classifieds as feed readers meet them: one Bun server on 127.0.0.1 serving the feeds of
// four forum packages and a JSON Feed, in the shapes of the real samples in ../shared/feeds/samples
// (read there, never copied; the posts here are our own WTS/WTB listings):
//   XenForo 2  /forums/<slug>.<id>/index.rss   RSS 2.0; generator = the board's title; guid = thread URL
//              /threads/<slug>.<id>/; `invalid@example.com (name)` author + dc:creator; content:encoded
//              CDATA in <div class="bbWrapper"> with <br /> lines; slash:comments; "+0000" dates
//   phpBB 3    /app.php/feed/forum/<id>, /feed.php   Atom; <title type="html"> CDATA "Forum • Subject";
//              <category term scheme label>; content type="html" with xml:base and the "Statistics:
//              Posted by … — date" trailer; "-07:00" offsets; author name in CDATA
//   Discourse  /c/<slug>/<id>.rss   RSS 2.0 with the discourse: namespace, dc:creator CDATA, <category>,
//              description CDATA, discourse:topicPinned/Closed/Archived, guid isPermaLink="false"
//              "<host>-topic-<id>", <source url=….rss>;  /latest.json and /c/<slug>/<id>.json: users +
//              topic_list.topics (no bodies: `excerpt` only on a category list)
//   vBulletin  /external.php?type=RSS2&forumids=<id>   RSS 2.0, generator "vBulletin", CDATA titles,
//              showthread.php links, "GMT" dates, content:encoded, category domain, dc:creator
//   JSON Feed  /feed.json   version 1.1, authors[], content_html, RFC 3339 dates
// Every feed answers with ETag and Last-Modified and honours If-None-Match / If-Modified-Since (304),
// gzips when asked (Accept-Encoding), and can be scripted: block() → 403 Cloudflare-style block page,
// rateLimit(s) → 429 + Retry-After, redirect(from, to), serve(path, raw answer), stall(path).
//
//   const forums = await startForumFeeds()
//   forums.publish('xenforo', { title: 'WTS: Aimpoint T2 with LaRue mount - $650 shipped' })
//   await fetchFeed(forums.url + forums.paths.xenforo, { allowPrivate: true, now: Date.now })

export type Board = 'xenforo' | 'phpbb' | 'discourse' | 'vbulletin' | 'jsonfeed'

/** How many of the newest items each feed holds: XenForo's per-forum RSS 50, phpBB's feed.php 15, Discourse's category RSS 25, vBulletin's external.php 15, a JSON Feed 20. */
export const DEPTH: Record<Board, number> = { xenforo: 50, phpbb: 15, discourse: 25, vbulletin: 15, jsonfeed: 20 }

export type FeedPost = { id: number; title: string; author: string; html: string; createdAt: number; category: string }

export type ServedRequest = { path: string; headers: Record<string, string> }

type Bytes = Uint8Array<ArrayBuffer>
/** a scripted answer; `identity`: never gzipped, even when asked */
type Raw = { status?: number; body: string | Bytes; contentType?: string; headers?: Record<string, string>; identity?: boolean }

const PATHS = {
  xenforo: '/forums/classifieds-optics.12/index.rss',
  phpbb: '/app.php/feed/forum/3',
  phpbbBoard: '/feed.php',
  discourseRss: '/c/classifieds/5.rss',
  discourseJson: '/c/classifieds/5.json',
  discourseLatest: '/latest.json',
  vbulletin: '/external.php?type=RSS2&forumids=7',
  jsonfeed: '/feed.json',
} as const

const SEED: Record<Board, [string, string, string][]> = {
  xenforo: [
    ['WTS: Aimpoint T2 with LaRue LT660 mount - $650 shipped', 'RangeRat', 'Like new, kill flash included.<br />\nPayPal F&amp;F or USPS MO.'],
    ['WTB: Geissele Super 42 trigger, flat bow', 'hogtied', 'Looking for a used one in good shape.<br />\nShipped to 78701.'],
    ['WTS/WTT: Trijicon RMR RM06 Type 2 - $400', 'optics_guy', 'Pulled from a slide, no box.<br />\nTrades: EOTech EXPS3.'],
  ],
  phpbb: [
    ['WTS Magpul PMAG 30 Gen M3 x10 - $120', 'dave_k', 'Ten mags, used twice.<br />Local pickup or shipped.'],
    ['WTB Surefire M600DF scout light', 'nightshift', 'Black preferred.<br />Paying PayPal G&amp;S.'],
  ],
  discourse: [
    ['[WTS] Holosun 509T X2 - $330', 'trailmix', '<p>Titanium housing, no scratches.</p>\n<p>Shipped CONUS.</p>'],
    ['[WTB] Unity FAST riser', 'lowlight', '<p>Tan or black, any condition.</p>'],
  ],
  vbulletin: [
    ['FS: Leupold VX-5HD 3-15x44 CDS-ZL2 - $850', 'VetBuyer', 'Mint, with Talley rings.<br />\nPrice firm.'],
    ['WTB: Vortex Razor HD Gen III 1-10x24', 'scope_seeker', 'Cash waiting.'],
  ],
  jsonfeed: [
    ['Deal: Primary Arms SLx 1-6x24 FFP - $199 (was $299)', 'dealbot', '<p>Coupon code at checkout.</p>'],
    ['Deal: Streamlight TLR-7A - $109', 'dealbot', '<p>Free shipping over $49.</p>'],
  ],
}

const slug = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 60) || 'thread'
const rfc822 = (ms: number, zone = '+0000') => new Date(ms).toUTCString().replace('GMT', zone)
const gmt = (ms: number) => new Date(ms).toUTCString()
/** RFC 3339 at UTC−7, as the sample phpBB board writes its dates. */
const pacific = (ms: number) => `${new Date(ms - 7 * 3600_000).toISOString().slice(0, 19)}-07:00`
const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')
const cdata = (s: string) => `<![CDATA[${s.replace(/]]>/g, ']]]]><![CDATA[>')}]]>`

export function renderXenForo(base: string, posts: FeedPost[]): string {
  const items = posts.map((p) => {
    const url = `${base}/threads/${slug(p.title)}.${p.id}/`
    return `    <item>
      <title>${esc(p.title)}</title>
      <pubDate>${rfc822(p.createdAt)}</pubDate>
      <link>${url}</link>
      <guid>${url}</guid>
      <author>invalid@example.com (${esc(p.author)})</author>
      <dc:creator>${esc(p.author)}</dc:creator>
      <content:encoded>${cdata(`<div class="bbWrapper">${p.html}</div><br />\n<a href="${url}" class="link link--internal">Read more</a>`)}</content:encoded>
      <slash:comments>0</slash:comments>
    </item>`
  })
  const built = rfc822(posts[0]?.createdAt ?? 0)
  return `<?xml version="1.0" encoding="utf-8"?>
<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:slash="http://purl.org/rss/1.0/modules/slash/">
  <channel>
    <title>Classifieds - Optics</title>
    <description>Classifieds - Optics</description>
    <pubDate>${built}</pubDate>
    <lastBuildDate>${built}</lastBuildDate>
    <generator>Classifieds - Optics</generator>
    <link>${base}/</link>
    <atom:link rel="self" type="application/rss+xml" href="${base}${PATHS.xenforo}"/>
${items.join('\n')}
  </channel>
</rss>`
}

export function renderPhpbb(base: string, posts: FeedPost[]): string {
  const entries = posts.map((p) => {
    const url = `${base}/viewtopic.php?t=${p.id}&amp;p=${p.id * 10}#p${p.id * 10}`
    return `<entry>
<author><name>${cdata(p.author)}</name></author>
<updated>${pacific(p.createdAt)}</updated>
<published>${pacific(p.createdAt)}</published>
<id>${url}</id>
<link href="${url}"/>
<title type="html">${cdata(`${p.category} • ${p.title}`)}</title>

<category term="${esc(p.category)}" scheme="${base}/viewforum.php?f=3" label="${esc(p.category)}"/>
<content type="html" xml:base="${url}">${cdata(`\n${p.html}<p>Statistics: Posted by <a href="${base}/memberlist.php?mode=viewprofile&amp;u=${p.id}">${p.author}</a> — ${gmt(p.createdAt)}</p><hr />\n`)}</content>
</entry>`
  })
  return `<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="en-gb">
<link rel="self" type="application/atom+xml" href="${base}/feed.php" />

<title>Gun Trader Forum</title>
<subtitle>Buy, sell and trade</subtitle>
<link href="${base}/index.php" />
<updated>${pacific(posts[0]?.createdAt ?? 0)}</updated>

<author><name>${cdata('Gun Trader Forum')}</name></author>
<id>${base}/feed.php</id>
${entries.join('\n')}
</feed>`
}

export function renderDiscourseRss(base: string, posts: FeedPost[]): string {
  const host = new URL(base).host
  const items = posts.map((p) => {
    const url = `${base}/t/${slug(p.title)}/${p.id}`
    return `        <item>
          <title>${esc(p.title)}</title>
          <dc:creator>${cdata(p.author)}</dc:creator>
          <category>${esc(p.category)}</category>
          <description>${cdata(`\n            ${p.html}\n            <p><a href="${url}">Read full topic</a></p>\n          `)}</description>
          <link>${url}</link>
          <pubDate>${rfc822(p.createdAt)}</pubDate>
          <discourse:topicPinned>No</discourse:topicPinned>
          <discourse:topicClosed>No</discourse:topicClosed>
          <discourse:topicArchived>No</discourse:topicArchived>
          <guid isPermaLink="false">${host}-topic-${p.id}</guid>
          <source url="${url}.rss">${esc(p.title)}</source>
        </item>`
  })
  return `<?xml version="1.0" encoding="UTF-8" ?>
<rss version="2.0" xmlns:discourse="http://www.discourse.org/" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:dc="http://purl.org/dc/elements/1.1/">
  <channel>
    <title>Classifieds - Trader Community</title>
    <link>${base}/c/classifieds/5</link>
    <description>Topics in the &#39;Classifieds&#39; category Buy, sell and trade gear.</description>
    
      <lastBuildDate>${rfc822(posts[0]?.createdAt ?? 0)}</lastBuildDate>
      <atom:link href="${base}${PATHS.discourseRss}" rel="self" type="application/rss+xml" />
${items.join('\n')}
  </channel>
</rss>
`
}

export function renderDiscourseJson(posts: FeedPost[], withExcerpt: boolean): string {
  const users = [...new Set(posts.map((p) => p.author))].map((username, i) => ({
    id: 100 + i,
    username,
    name: username,
    avatar_template: `/user_avatar/x/${username.toLowerCase()}/{size}/1_2.png`,
  }))
  const idOf = (name: string) => users.find((u) => u.username === name)!.id
  const topics = posts.map((p) => ({
    id: p.id,
    title: p.title,
    fancy_title: esc(p.title),
    slug: slug(p.title),
    posts_count: 1,
    reply_count: 0,
    highest_post_number: 1,
    image_url: null,
    created_at: new Date(p.createdAt).toISOString(),
    last_posted_at: new Date(p.createdAt).toISOString(),
    bumped: true,
    bumped_at: new Date(p.createdAt).toISOString(),
    archetype: 'regular',
    unseen: false,
    pinned: false,
    unpinned: null,
    ...(withExcerpt ? { excerpt: p.html.replace(/<[^>]+>/g, '').slice(0, 200) } : {}),
    visible: true,
    closed: false,
    archived: false,
    bookmarked: null,
    liked: null,
    tags: [],
    views: 12,
    like_count: 0,
    has_summary: false,
    last_poster_username: p.author,
    category_id: 5,
    pinned_globally: false,
    featured_link: null,
    posters: [{ extras: 'latest single', description: 'Original Poster, Most Recent Poster', user_id: idOf(p.author), primary_group_id: null }],
  }))
  return JSON.stringify(
    { users, primary_groups: [], topic_list: { can_create_topic: false, draft: null, draft_key: 'new_topic', draft_sequence: null, per_page: 30, topics } },
    null,
    2,
  )
}

export function renderVbulletin(base: string, posts: FeedPost[]): string {
  const items = posts.map((p) => {
    const url = `${base}/showthread.php?${p.id}-${slug(p.title)}`
    return `\t\t<item>
\t\t\t<title>${cdata(p.title)}</title>
\t\t\t<link>${url}&amp;goto=newpost</link>
\t\t\t<pubDate>${gmt(p.createdAt)}</pubDate>
\t\t\t<description>${esc(p.html.replace(/<[^>]+>/g, ''))}</description>
\t\t\t<content:encoded>${cdata(`<div>${p.html}</div>`)}</content:encoded>
\t\t\t<category domain="${base}/forumdisplay.php?7-${slug(p.category)}">${esc(p.category)}</category>
\t\t\t<dc:creator>${esc(p.author)}</dc:creator>
\t\t\t<guid isPermaLink="true">${url}</guid>
\t\t</item>`
  })
  return `<?xml version="1.0" encoding="ISO-8859-1"?>
<rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:content="http://purl.org/rss/1.0/modules/content/">
\t<channel>
\t\t<title>Sniper's Hide Out - Marketplace</title>
\t\t<link>${base}/</link>
\t\t<description>Buy, sell and trade</description>
\t\t<language>en</language>
\t\t<lastBuildDate>${gmt(posts[0]?.createdAt ?? 0)}</lastBuildDate>
\t\t<generator>vBulletin</generator>
\t\t<ttl>60</ttl>
${items.join('\n')}
\t</channel>
</rss>
`
}

export function renderJsonFeed(base: string, posts: FeedPost[]): string {
  return JSON.stringify(
    {
      version: 'https://jsonfeed.org/version/1.1',
      title: 'Optics Deals',
      home_page_url: `${base}/`,
      feed_url: `${base}${PATHS.jsonfeed}`,
      language: 'en-US',
      authors: [{ name: 'Deals desk' }],
      items: posts.map((p) => ({
        id: `${base}/deals/${p.id}`,
        url: `/deals/${p.id}-${slug(p.title)}`,
        title: p.title,
        content_html: p.html,
        date_published: new Date(p.createdAt).toISOString().replace(/\.\d{3}Z$/, 'Z'),
        authors: [{ name: p.author }],
        tags: [p.category],
      })),
    },
    null,
    2,
  )
}

const CATEGORY: Record<Board, string> = { xenforo: 'Optics', phpbb: 'Classifieds', discourse: 'Classifieds', vbulletin: 'Marketplace', jsonfeed: 'Optics' }

/** A block page in the shape of Cloudflare's "Sorry, you have been blocked" (our own text). */
export const BLOCK_PAGE = `<!DOCTYPE html>
<!--[if lt IE 7]> <html class="no-js ie6 oldie" lang="en-US"> <![endif]-->
<!--[if gt IE 8]><!--> <html class="no-js" lang="en-US"> <!--<![endif]-->
<head>
<title>Attention Required! | Cloudflare</title>
<meta charset="UTF-8" />
<meta name="robots" content="noindex, nofollow" />
</head>
<body>
  <div id="cf-wrapper">
    <div id="cf-error-details" class="cf-error-details-wrapper">
      <h1 data-translate="block_headline">Sorry, you have been blocked</h1>
      <h2 class="cf-subheadline">You are unable to access forum.example</h2>
      <p>This website is using a security service to protect itself from online attacks.</p>
      <p>Cloudflare Ray ID: <strong>0000000000000000</strong></p>
    </div>
  </div>
</body>
</html>`

export type ForumFeeds = Awaited<ReturnType<typeof startForumFeeds>>

export async function startForumFeeds(opts: { now?: () => number } = {}) {
  const now = opts.now ?? Date.now
  const all: Record<Board, FeedPost[]> = { xenforo: [], phpbb: [], discourse: [], vbulletin: [], jsonfeed: [] }
  const requests: ServedRequest[] = []
  const raw = new Map<string, Raw>()
  const redirects = new Map<string, { to: string; status: number }>()
  const stalled = new Set<string>()
  let blocked = false
  let retryAfter: string | null = null
  let nextId = 4100

  function publish(board: Board, p: Partial<FeedPost> = {}): FeedPost {
    const post: FeedPost = {
      id: p.id ?? nextId++,
      title: p.title ?? `WTS: listing ${nextId}`,
      author: p.author ?? 'seller',
      html: p.html ?? 'Shipped, PayPal F&amp;F.',
      createdAt: p.createdAt ?? now(),
      category: p.category ?? CATEGORY[board],
    }
    all[board].unshift(post)
    return post
  }
  const t0 = now()
  for (const board of Object.keys(SEED) as Board[])
    for (const [i, [title, author, html]] of SEED[board].entries()) publish(board, { title, author, html, createdAt: t0 - (SEED[board].length - i) * 3600_000 })

  function render(key: string, base: string): { body: string; contentType: string; board: Board } | null {
    // a feed holds only its newest items, as the real ones do (the samples in ../shared/feeds)
    const posts = Object.fromEntries((Object.keys(all) as Board[]).map((b) => [b, all[b].slice(0, DEPTH[b])])) as Record<Board, FeedPost[]>
    switch (key) {
      case PATHS.xenforo:
        return { body: renderXenForo(base, posts.xenforo), contentType: 'application/rss+xml; charset=utf-8', board: 'xenforo' }
      case PATHS.phpbb:
      case PATHS.phpbbBoard:
        return { body: renderPhpbb(base, posts.phpbb), contentType: 'application/atom+xml; charset=UTF-8', board: 'phpbb' }
      case PATHS.discourseRss:
        return { body: renderDiscourseRss(base, posts.discourse), contentType: 'application/rss+xml; charset=utf-8', board: 'discourse' }
      case PATHS.discourseJson:
        return { body: renderDiscourseJson(posts.discourse, true), contentType: 'application/json; charset=utf-8', board: 'discourse' }
      case PATHS.discourseLatest:
        return { body: renderDiscourseJson(posts.discourse, false), contentType: 'application/json; charset=utf-8', board: 'discourse' }
      case PATHS.vbulletin:
        return { body: renderVbulletin(base, posts.vbulletin), contentType: 'application/rss+xml', board: 'vbulletin' }
      case PATHS.jsonfeed:
        return { body: renderJsonFeed(base, posts.jsonfeed), contentType: 'application/feed+json', board: 'jsonfeed' }
    }
    return null
  }

  function encode(req: Request, body: string | Bytes, headers: Record<string, string>): string | Bytes {
    if (!/\bgzip\b/.test(req.headers.get('accept-encoding') ?? '')) return body
    headers['content-encoding'] = 'gzip'
    return new Uint8Array(Bun.gzipSync(typeof body === 'string' ? new TextEncoder().encode(body) : body))
  }

  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    async fetch(req) {
      const url = new URL(req.url)
      const key = url.pathname + url.search
      requests.push({ path: key, headers: Object.fromEntries(req.headers) })
      if (stalled.has(key)) await new Promise((r) => setTimeout(r, 60_000))
      const hop = redirects.get(key)
      if (hop) return new Response(null, { status: hop.status, headers: { location: hop.to } })
      if (blocked)
        return new Response(BLOCK_PAGE, {
          status: 403,
          headers: { 'content-type': 'text/html; charset=UTF-8', server: 'cloudflare', 'cf-ray': '0000000000000000-IAD' },
        })
      if (retryAfter !== null) return new Response('Too many requests', { status: 429, headers: { 'retry-after': retryAfter, 'content-type': 'text/plain' } })
      const scripted = raw.get(key)
      if (scripted) {
        const headers: Record<string, string> = { 'content-type': scripted.contentType ?? 'application/xml', ...scripted.headers }
        return new Response(scripted.identity ? scripted.body : encode(req, scripted.body, headers), { status: scripted.status ?? 200, headers })
      }
      const base = url.origin
      const page = render(key, base)
      if (!page)
        return new Response(
          '<!DOCTYPE html><html><head><title>Oops! We ran into some problems.</title></head><body>The requested page could not be found.</body></html>',
          { status: 404, headers: { 'content-type': 'text/html; charset=utf-8' } },
        )
      const etag = `"${Bun.hash(page.body).toString(16)}"`
      const lastModified = gmt(Math.floor((all[page.board][0]?.createdAt ?? t0) / 1000) * 1000)
      const ifNoneMatch = req.headers.get('if-none-match')
      const ifModifiedSince = req.headers.get('if-modified-since')
      const fresh = ifNoneMatch !== null ? ifNoneMatch === etag : ifModifiedSince !== null && Date.parse(ifModifiedSince) >= Date.parse(lastModified)
      if (fresh) return new Response(null, { status: 304, headers: { etag, 'last-modified': lastModified } })
      const headers: Record<string, string> = { 'content-type': page.contentType, etag, 'last-modified': lastModified, 'cache-control': 'max-age=0' }
      return new Response(encode(req, page.body, headers), { headers })
    },
  })
  const url = `http://127.0.0.1:${server.port}`

  return {
    url,
    paths: PATHS,
    /** every post of each board, newest first (a feed shows the first DEPTH of them) */
    posts: all,
    requests,
    publish,
    /** every feed answers 403 with the block page (true) or normally again (false) */
    block(on = true) {
      blocked = on
    },
    /** every feed answers 429 with this Retry-After (seconds or an HTTP date); null ends it */
    rateLimit(value: string | null) {
      retryAfter = value
    },
    redirect(from: string, to: string, status = 301) {
      redirects.set(from, { to, status })
    },
    /** answers `path` (with its query) with exactly this */
    serve(path: string, answer: Raw) {
      raw.set(path, answer)
    },
    /** `path` waits a minute before answering (timeouts) */
    stall(path: string) {
      stalled.add(path)
    },
    async stop() {
      await server.stop(true)
    },
  }
}
