// A faithful local Reddit for tests: two Bun servers on 127.0.0.1 standing in for
// www.reddit.com (the Atom feeds `/r/A+B/new/.rss`, logged-out JSON listings + /api/v1/access_token)
// and oauth.reddit.com (bearer-only listings). Listings, headers and error bodies follow what Reddit
// sends in 2026: logged-out JSON answers 403 (closed since May 2026; `loggedOutJson: 'open'` for the
// old world), the Atom feed has the shape of the real samples in ../shared/feeds (one line, SC_OFF
// wrapper, "submitted by" trailer, relative [link] for crossposts, no flair), `block()` serves the 403
// "whoa there, pardner!" block page, `loginRedirect()` sends www requests to the login page, and
// `ban(sub)` makes a subreddit answer 404 (alone or inside a multireddit; OAuth leaves it out silently).
//
//   const reddit = await startFakeReddit({ clientId: 'id', clientSecret: 'secret' })
//   reddit.publish({ subreddit: 'GunAccessoriesForSale', title: '[WTS] Aimpoint T2 - $650' })
//   reddit.publish({ title: '[H] RMR [W] PayPal', author_flair_text: 'Trades: 12', url: '/r/x/comments/abc/' })
//   new RedditClient({ baseUrl: reddit.oauthUrl, authUrl: reddit.authUrl, ... })
//   fakeRedditClient(reddit, { clock })   (public mode, both forums: the usual test client)

import { RedditClient } from '../../src/forums/reddit-client'

export type FakePost = Record<string, unknown> & {
  id: string
  name: string
  title: string
  selftext: string
  author: string
  subreddit: string
  permalink: string
  url: string
  created_utc: number
  link_flair_text: string | null
}

export type FakeFault = 'none' | '429' | '500' | '503' | 'timeout' | 'malformed'

export type FakeRequest = { host: 'www' | 'oauth'; method: string; path: string; query: Record<string, string>; headers: Record<string, string>; at: number }

export type FakeRedditOptions = {
  port?: number
  clientId?: string
  clientSecret?: string
  /** seconds; Reddit issues 86400 for app-only tokens */
  tokenExpiresIn?: number
  /** requests per window before automatic 429s; Reddit's OAuth window is 600 s */
  rateLimit?: { limit?: number; windowSeconds?: number }
  /** how long a 'timeout' fault stalls before answering */
  timeoutDelayMs?: number
  /** default subreddit for publish() */
  subreddit?: string
  now?: () => number
  /** logged-out JSON on www: 'closed' (403, as since May 2026; the default) or 'open' (before) */
  loggedOutJson?: 'closed' | 'open'
  /** how far back a listing or feed pages (Reddit: 1000 posts); fewer makes coverage gaps cheap to produce */
  listingDepth?: number
}

export type FakeReddit = Awaited<ReturnType<typeof startFakeReddit>>

const ACCESSORIES = 'GunAccessoriesForSale'

export async function startFakeReddit(opts: FakeRedditOptions = {}) {
  const clientId = opts.clientId ?? 'fake-client-id'
  const clientSecret = opts.clientSecret ?? 'fake-client-secret'
  const now = opts.now ?? Date.now
  const posts: FakePost[] = [] // newest first
  const requests: FakeRequest[] = []
  const tokenRequests: { at: number; ok: boolean; headers: Record<string, string>; body: string }[] = []
  const tokens = new Set<string>()
  const rateLimit = {
    limit: opts.rateLimit?.limit ?? 1000,
    windowSeconds: opts.rateLimit?.windowSeconds ?? 600,
    used: 0,
    windowStart: now(),
  }
  let fault: { kind: FakeFault; times: number } = { kind: 'none', times: 0 }
  let nextId = 36 ** 6 + 1234567 // seven base-36 digits, like current Reddit ids
  let timeoutDelayMs = opts.timeoutDelayMs ?? 5_000
  let loggedOutJson = opts.loggedOutJson ?? 'closed'
  let blocked = false
  let toLogin = false
  let retryAfter: number | null = null
  const banned = new Map<string, 'banned' | 'private'>()
  /** accounts /user/<name>/about answers (lowercased name); others 404 as deleted or never existed */
  const accounts = new Map<string, { name: string; createdUtc: number; linkKarma: number; commentKarma: number; suspended?: boolean }>()
  const stalled = new Set<() => void>()

  function rateHeaders(): Record<string, string> {
    const t = now()
    if (t - rateLimit.windowStart >= rateLimit.windowSeconds * 1000) {
      rateLimit.windowStart = t - ((t - rateLimit.windowStart) % (rateLimit.windowSeconds * 1000))
      rateLimit.used = 0
    }
    const reset = Math.max(0, Math.ceil((rateLimit.windowStart + rateLimit.windowSeconds * 1000 - t) / 1000))
    return {
      'x-ratelimit-used': String(rateLimit.used),
      'x-ratelimit-remaining': Math.max(0, rateLimit.limit - rateLimit.used).toFixed(1),
      'x-ratelimit-reset': String(reset),
    }
  }

  function takeFault(): FakeFault {
    if (fault.kind === 'none' || fault.times <= 0) return 'none'
    fault.times--
    const kind = fault.kind
    if (fault.times <= 0) fault = { kind: 'none', times: 0 }
    return kind
  }

  function record(host: 'www' | 'oauth', req: Request, url: URL) {
    requests.push({
      host,
      method: req.method,
      path: decodeURIComponent(url.pathname),
      query: Object.fromEntries(url.searchParams),
      headers: Object.fromEntries(req.headers),
      at: now(),
    })
  }

  /** Every API read counts against the rate limit and may meet a scripted fault: the error answer, or the headers to answer with. */
  async function gate(): Promise<Response | Record<string, string>> {
    const t0 = rateHeaders()
    rateLimit.used++
    const headers = { ...rateHeaders(), 'cache-control': 'private, s-maxage=0, max-age=0, must-revalidate' }
    if (Number(t0['x-ratelimit-remaining']) < 1) return tooMany(t0)
    const f = takeFault()
    if (f === '429') return tooMany(headers)
    if (f === '500' || f === '503') return html(f === '500' ? 500 : 503, 'Our CDN was unable to reach our servers', headers)
    if (f === 'timeout') await stall(timeoutDelayMs)
    if (f === 'malformed') return html(200, 'reddit.com: over capacity', headers)
    return headers
  }

  async function listing(req: Request, url: URL, host: 'www' | 'oauth'): Promise<Response> {
    const headers = await gate()
    if (headers instanceof Response) return headers

    const m = /^\/r\/([^/]+)\/new(\.json)?\/?$/.exec(decodeURIComponent(url.pathname))
    const subs = new Set(m![1]!.split('+').map((s) => s.toLowerCase()))
    // a banned or private subreddit: alone it answers 404/403 with its reason; in a multireddit www
    // answers 404 too, while OAuth leaves it out silently (why Dibs shows the last post per forum)
    const gone = missingSub(subs)
    if (gone && (host === 'www' || subs.size === 1)) {
      const reason = banned.get(gone)!
      return Response.json(
        { reason, message: reason === 'private' ? 'Forbidden' : 'Not Found', error: reason === 'private' ? 403 : 404 },
        { status: reason === 'private' ? 403 : 404, headers },
      )
    }
    for (const s of banned.keys()) subs.delete(s)
    const { page, more } = pageOf(subs, url)
    const body = {
      kind: 'Listing',
      data: {
        after: more && page.length > 0 ? page[page.length - 1]!.name : null,
        dist: page.length,
        modhash: host === 'www' ? '' : null,
        geo_filter: '',
        children: page.map((p) => ({ kind: 't3', data: p })),
        before: null,
      },
    }
    return Response.json(body, { headers })
  }

  /** One page of the subreddits' posts, newest first, by ?limit= (1–100, default 25) and ?after=<fullname>, never deeper than listingDepth. */
  function pageOf(subs: Set<string>, url: URL): { page: FakePost[]; more: boolean } {
    const matching = posts.filter((p) => subs.has(p.subreddit.toLowerCase())).slice(0, opts.listingDepth ?? 1000)
    const limit = Math.max(1, Math.min(100, Number(url.searchParams.get('limit') ?? 25) || 25))
    const after = url.searchParams.get('after')
    let start = 0
    if (after) {
      const i = matching.findIndex((p) => p.name === after)
      start = i === -1 ? matching.length : i + 1 // an unknown cursor yields an empty page, as on Reddit
    }
    return { page: matching.slice(start, start + limit), more: start + limit < matching.length }
  }

  // GET /api/info.json?id=t3_a,t3_b (www) or /api/info?id=… (oauth): a Listing of the t3 objects
  // Reddit still has for those fullnames, in the order asked; unknown ids are left out; more than
  // 100 ids is a 400 as on Reddit. Counts against the rate limit like any listing.
  async function info(url: URL): Promise<Response> {
    const headers = await gate()
    if (headers instanceof Response) return headers
    const names = (url.searchParams.get('id') ?? '').split(',').filter(Boolean)
    if (names.length > 100) return Response.json({ message: 'Bad Request', error: 400 }, { status: 400, headers })
    const found = names.flatMap((n) => posts.filter((p) => p.name === n))
    const body = {
      kind: 'Listing',
      data: { after: null, dist: found.length, modhash: '', geo_filter: '', children: found.map((p) => ({ kind: 't3', data: p })), before: null },
    }
    return Response.json(body, { headers })
  }

  // GET /user/<name>/about (oauth): the t2 account as Reddit answers it (created_utc, link_karma, comment_karma,
  // total_karma); a suspended account answers only {name, is_suspended: true}; an unknown name 404s. Counts against
  // the rate limit like any request.
  async function about(name: string): Promise<Response> {
    const headers = await gate()
    if (headers instanceof Response) return headers
    const a = accounts.get(name.toLowerCase())
    if (!a) return Response.json({ message: 'Not Found', error: 404 }, { status: 404, headers })
    if (a.suspended) return Response.json({ kind: 't2', data: { name: a.name, is_suspended: true } }, { headers })
    const data = {
      name: a.name,
      id: `u${a.name.length}x`,
      is_suspended: false,
      created: a.createdUtc,
      created_utc: a.createdUtc,
      link_karma: a.linkKarma,
      comment_karma: a.commentKarma,
      total_karma: a.linkKarma + a.commentKarma,
      awarder_karma: 0,
      awardee_karma: 0,
      verified: true,
      has_verified_email: true,
      is_gold: false,
      is_mod: false,
      icon_img: '',
      subreddit: { display_name: `u_${a.name}`, public_description: '' },
    }
    return Response.json({ kind: 't2', data }, { headers })
  }

  function tooMany(headers: Record<string, string>): Response {
    const h = retryAfter === null ? headers : { ...headers, 'retry-after': String(retryAfter) }
    return Response.json({ message: 'Too Many Requests', error: 429 }, { status: 429, headers: h })
  }

  /** www's refusals before any listing: the block page, the login redirect, closed logged-out JSON. */
  function wwwRefusal(url: URL): Response | null {
    if (blocked) return blockPage()
    if (toLogin) return new Response(null, { status: 302, headers: { location: `https://www.reddit.com/login/?dest=${encodeURIComponent(url.href)}` } })
    if (loggedOutJson === 'closed' && url.pathname.endsWith('.json'))
      return Response.json({ message: 'Forbidden', error: 403 }, { status: 403, headers: { 'cache-control': 'private, no-store', server: 'snooserv' } })
    return null
  }

  /** Reddit's 403 block page, headers and body as in ../shared/feeds (Reddit-RSS-Tracker's log). */
  function blockPage(): Response {
    const body = `<!doctype html>
     <html>
  <head>
    <title>Blocked</title>
  </head>
  <body>
    <h1>whoa there, pardner!</h1>

<p>Your request has been blocked due to a network policy.</p>

<p>Try logging in or creating an account <a href=https://www.reddit.com/login/>here</a> to get back to browsing.</p>
  </body>
</html>`
    return new Response(body, {
      status: 403,
      headers: { 'retry-after': '0', 'content-type': 'text/html', 'cache-control': 'private, no-store', server: 'snooserv', via: '1.1 varnish' },
    })
  }

  function missingSub(subs: Set<string>): string | null {
    for (const s of subs) if (banned.has(s)) return s
    return null
  }

  // GET /r/A+B/new/.rss: the newest entries as Atom, shaped like the real 2026 feed (one line).
  async function atom(url: URL): Promise<Response> {
    const headers = await gate()
    if (headers instanceof Response) return headers
    const m = /^\/r\/([^/]+)\/new\/?\.rss$/.exec(decodeURIComponent(url.pathname))
    const names = m![1]!.split('+')
    const subs = new Set(names.map((s) => s.toLowerCase()))
    if (missingSub(subs)) return html(404, 'page not found', headers)
    const { page } = pageOf(subs, url)
    const self = `https://www.reddit.com/r/${names.join('+')}/new/.rss`
    const feedCategory = names.length === 1 ? `<category term="${names[0]}" label="r/${names[0]}"/>` : ''
    const body =
      `<?xml version="1.0" encoding="UTF-8"?><feed xmlns="http://www.w3.org/2005/Atom" xmlns:media="http://search.yahoo.com/mrss/">${feedCategory}` +
      `<updated>${iso(now() / 1000)}</updated><icon>https://www.redditstatic.com/icon.png/</icon><id>/r/${names.join('+')}/new/.rss</id>` +
      `<link rel="self" href="${self}" type="application/atom+xml" /><link rel="alternate" href="https://www.reddit.com/r/${names.join('+')}/new/" type="text/html" />` +
      `<title>newest submissions : ${escapeXml(names.join('+'))}</title>` +
      page.map(atomEntry).join('') +
      '</feed>'
    return new Response(body, {
      headers: { ...headers, 'content-type': 'application/atom+xml; charset=UTF-8', 'cache-control': 'private, max-age=3600', server: 'snooserv' },
    })
  }

  function html(status: number, text: string, headers: Record<string, string>): Response {
    return new Response(`<!doctype html><html><head><title>${text}</title></head><body><h1>${text}</h1></body></html>`, {
      status,
      headers: { ...headers, 'content-type': 'text/html; charset=UTF-8' },
    })
  }

  function unauthorized(): Response {
    return Response.json(
      { message: 'Unauthorized', error: 401 },
      { status: 401, headers: { 'www-authenticate': 'Bearer realm="reddit", error="invalid_token"' } },
    )
  }

  function stall(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        stalled.delete(done)
        clearTimeout(timer)
        resolve()
      }
      const timer = setTimeout(done, ms)
      stalled.add(done)
    })
  }

  async function accessToken(req: Request): Promise<Response> {
    const body = await req.text()
    const auth = req.headers.get('authorization') ?? ''
    const expected = `Basic ${btoa(`${clientId}:${clientSecret}`)}`
    const ok = auth === expected
    const form = new URLSearchParams(body)
    tokenRequests.push({ at: now(), ok, headers: Object.fromEntries(req.headers), body })
    if (!ok) return unauthorized()
    if (form.get('grant_type') !== 'client_credentials') return Response.json({ error: 'unsupported_grant_type' })
    const token = `-${crypto.randomUUID().replaceAll('-', '').slice(0, 28)}`
    tokens.add(token)
    return Response.json({ access_token: token, token_type: 'bearer', expires_in: opts.tokenExpiresIn ?? 86400, scope: '*' })
  }

  function atomEntry(p: FakePost): string {
    const permalink = `https://www.reddit.com${p.permalink}`
    const user = `https://www.reddit.com/user/${p.author}`
    const link = p.is_self ? permalink : String(p.url)
    const md = p.selftext ? `<!-- SC_OFF --><div class="md">${markdownHtml(String(p.selftext))}</div><!-- SC_ON --> ` : ''
    const content =
      `${md}&#32; submitted by &#32; <a href="${user}"> /u/${p.author} </a> <br/> <span><a href="${escapeXml(link)}">[link]</a></span> &#32; ` +
      `<span><a href="${permalink}">[comments]</a></span>`
    return (
      `<entry><author><name>/u/${escapeXml(String(p.author))}</name><uri>${escapeXml(user)}</uri></author>` +
      `<category term="${escapeXml(p.subreddit)}" label="r/${escapeXml(p.subreddit)}"/>` +
      `<content type="html">${escapeXml(content)}</content><id>t3_${p.id}</id><link href="${escapeXml(permalink)}" />` +
      `<updated>${iso(p.created_utc)}</updated><published>${iso(p.created_utc)}</published><title>${escapeXml(p.title)}</title></entry>`
    )
  }

  const www = Bun.serve({
    port: opts.port ?? 0,
    hostname: '127.0.0.1',
    idleTimeout: 30,
    async fetch(req) {
      const url = new URL(req.url)
      record('www', req, url)
      if (req.method === 'POST' && url.pathname === '/api/v1/access_token') return accessToken(req)
      const refused = wwwRefusal(url)
      if (refused) return refused
      if (req.method === 'GET' && /^\/r\/[^/]+\/new\/?\.rss$/.test(url.pathname)) return atom(url)
      if (req.method === 'GET' && /^\/r\/[^/]+\/new\.json$/.test(url.pathname)) return listing(req, url, 'www')
      if (req.method === 'GET' && url.pathname === '/api/info.json') return info(url)
      return html(404, 'page not found', {})
    },
  })

  const oauth = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    idleTimeout: 30,
    async fetch(req) {
      const url = new URL(req.url)
      record('oauth', req, url)
      const m = /^bearer (.+)$/i.exec(req.headers.get('authorization') ?? '')
      if (!m || !tokens.has(m[1]!)) return unauthorized()
      if (req.method === 'GET' && /^\/r\/[^/]+\/new(\.json)?\/?$/.test(url.pathname)) return listing(req, url, 'oauth')
      if (req.method === 'GET' && /^\/api\/info(\.json)?$/.test(url.pathname)) return info(url)
      const user = /^\/user\/([^/]+)\/about(\.json)?\/?$/.exec(url.pathname)
      if (req.method === 'GET' && user) return about(decodeURIComponent(user[1]!))
      return Response.json({ message: 'Not Found', error: 404 }, { status: 404 })
    },
  })

  const wwwUrl = `http://127.0.0.1:${www.port}`

  function publish(partial: Partial<FakePost> = {}): FakePost {
    const id = partial.id ?? (nextId++).toString(36)
    const subreddit = partial.subreddit ?? opts.subreddit ?? ACCESSORIES
    const title = partial.title ?? `[WTS] Test item ${id} - $${100 + (nextId % 400)}`
    const slug = title
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '_')
      .replace(/^_|_$/g, '')
      .slice(0, 50)
    const permalink = partial.permalink ?? `/r/${subreddit}/comments/${id}/${slug}/`
    const created = partial.created_utc ?? Math.floor(now() / 1000)
    const selftext = partial.selftext ?? ''
    const isSelf = partial.url === undefined
    const post: FakePost = {
      approved_at_utc: null,
      subreddit,
      selftext,
      author_fullname: `t2_${(nextId * 7).toString(36)}`,
      saved: false,
      gilded: 0,
      clicked: false,
      title,
      link_flair_richtext: [],
      subreddit_name_prefixed: `r/${subreddit}`,
      hidden: false,
      pwls: 7,
      link_flair_css_class: partial.link_flair_text ? String(partial.link_flair_text).toLowerCase().replace(/\W+/g, '') : null,
      downs: 0,
      hide_score: true,
      name: `t3_${id}`,
      quarantine: false,
      link_flair_text_color: 'dark',
      upvote_ratio: 1,
      subreddit_type: 'public',
      ups: 1,
      total_awards_received: 0,
      media_embed: {},
      is_original_content: false,
      user_reports: [],
      secure_media: null,
      is_reddit_media_domain: false,
      is_meta: false,
      category: null,
      secure_media_embed: {},
      link_flair_text: null,
      can_mod_post: false,
      score: 1,
      approved_by: null,
      thumbnail: isSelf ? 'self' : 'default',
      edited: false,
      gildings: {},
      content_categories: null,
      is_self: isSelf,
      created: created,
      link_flair_type: 'text',
      wls: 7,
      removed_by_category: null,
      // a crosspost's url is relative to Reddit ("/r/…/comments/…"), its domain the original's self.sub
      domain: isSelf ? `self.${subreddit}` : new URL(String(partial.url), 'https://www.reddit.com').hostname,
      allow_live_comments: false,
      selftext_html: selftext ? `<!-- SC_OFF --><div class="md"><p>${selftext}</p></div><!-- SC_ON -->` : null,
      likes: null,
      suggested_sort: null,
      view_count: null,
      archived: false,
      no_follow: true,
      is_crosspostable: false,
      pinned: false,
      over_18: false,
      all_awardings: [],
      awarders: [],
      media_only: false,
      can_gild: false,
      spoiler: false,
      locked: false,
      author_flair_text: null,
      treatment_tags: [],
      visited: false,
      removed_by: null,
      num_reports: null,
      distinguished: null,
      subreddit_id: subreddit.toLowerCase() === 'gundeals' ? 't5_2tqb5' : 't5_2v8zt',
      author_is_blocked: false,
      mod_reason_by: null,
      removal_reason: null,
      id,
      is_robot_indexable: true,
      report_reasons: null,
      author: 'fake_seller',
      discussion_type: null,
      num_comments: 0,
      send_replies: true,
      contest_mode: false,
      mod_reports: [],
      author_patreon_flair: false,
      permalink,
      stickied: false,
      url: `https://www.reddit.com${permalink}`,
      subreddit_subscribers: 150000,
      created_utc: created,
      num_crossposts: 0,
      media: null,
      is_video: false,
      ...partial,
    }
    // newest first by created_utc; among equal timestamps the later publish comes first
    const i = posts.findIndex((p) => p.created_utc <= post.created_utc)
    if (i === -1) posts.push(post)
    else posts.splice(i, 0, post)
    return post
  }

  return {
    /** stands in for https://www.reddit.com */
    url: wwwUrl,
    /** stands in for https://oauth.reddit.com */
    oauthUrl: `http://127.0.0.1:${oauth.port}`,
    authUrl: `${wwwUrl}/api/v1/access_token`,
    clientId,
    clientSecret,
    /** newest first */
    posts,
    requests,
    /** listing requests only (token requests excluded) */
    listingRequests: () => requests.filter((r) => r.path.includes('/new')),
    /** /api/info requests (the re-check) */
    infoRequests: () => requests.filter((r) => r.path.startsWith('/api/info')),
    /** /user/<name>/about requests (seller trust) */
    aboutRequests: () => requests.filter((r) => /^\/user\/[^/]+\/about/.test(r.path)),
    /** an account /user/<name>/about answers: created `ageDays` before now, with its karma */
    addAccount(name: string, a: { ageDays: number; linkKarma?: number; commentKarma?: number; suspended?: boolean }) {
      accounts.set(name.toLowerCase(), {
        name,
        createdUtc: Math.floor(now() / 1000) - a.ageDays * 86_400,
        linkKarma: a.linkKarma ?? 0,
        commentKarma: a.commentKarma ?? 0,
        suspended: a.suspended,
      })
    },
    /** edits a published post in place (flair, selftext, title …), as its author or a mod would */
    edit(id: string, change: Partial<FakePost>): FakePost {
      const post = posts.find((p) => p.id === id)
      if (!post) throw new Error(`no fake post ${id}`)
      Object.assign(post, change, { edited: Math.floor(now() / 1000) })
      if (change.link_flair_text !== undefined)
        post.link_flair_css_class = change.link_flair_text ? String(change.link_flair_text).toLowerCase().replace(/\W+/g, '') : null
      if (change.selftext !== undefined)
        post.selftext_html = change.selftext ? `<!-- SC_OFF --><div class="md"><p>${change.selftext}</p></div><!-- SC_ON -->` : null
      return post
    },
    /** what Reddit shows of a removed post: by a moderator/automod ("[removed]") or deleted by its author ("[deleted]", author gone) */
    remove(id: string, by: 'moderator' | 'automod_filtered' | 'deleted' = 'moderator'): FakePost {
      const post = posts.find((p) => p.id === id)
      if (!post) throw new Error(`no fake post ${id}`)
      if (by === 'deleted')
        Object.assign(post, { removed_by_category: 'deleted', selftext: '[deleted]', author: '[deleted]', author_fullname: undefined, selftext_html: null })
      else Object.assign(post, { removed_by_category: by, selftext: '[removed]', selftext_html: null, is_robot_indexable: false })
      return post
    },
    tokenRequests,
    rateLimit,
    publish,
    publishMany(n: number, partial: Partial<FakePost> = {}): FakePost[] {
      return Array.from({ length: n }, () => publish(partial))
    },
    setFault(kind: FakeFault, times = 1) {
      fault = { kind, times: kind === 'none' ? 0 : times }
    },
    setTimeoutDelay(ms: number) {
      timeoutDelayMs = ms
    },
    /** the 403 "whoa there, pardner!" block page for every www request (some cloud address ranges) */
    block(on = true) {
      blocked = on
    },
    /** www requests are sent to the login page (302), as old.reddit.com does for logged-out visitors */
    loginRedirect(on = true) {
      toLogin = on
    },
    /** logged-out JSON closed (403, since May 2026) or open */
    setLoggedOutJson(state: 'closed' | 'open') {
      loggedOutJson = state
    },
    /** a 429's Retry-After in seconds (null: none) */
    setRetryAfter(seconds: number | null) {
      retryAfter = seconds
    },
    /** the subreddit is banned (404) or private (403) from now on; null lifts it */
    ban(subreddit: string, reason: 'banned' | 'private' | null = 'banned') {
      if (reason === null) banned.delete(subreddit.toLowerCase())
      else banned.set(subreddit.toLowerCase(), reason)
    },
    /** invalidate every issued token (next bearer request gets 401) */
    revokeTokens() {
      tokens.clear()
    },
    async stop() {
      for (const release of [...stalled]) release()
      await Promise.all([www.stop(true), oauth.stop(true)])
    },
  }
}

function iso(seconds: number): string {
  return new Date(Math.floor(seconds) * 1000).toISOString().replace('.000Z', '+00:00')
}

function escapeXml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')
}

/** Reddit's selftext_html for plain markdown: paragraphs on blank lines, a single line break kept as is inside one, HTML escaped. */
function markdownHtml(text: string): string {
  return text
    .split(/\n\s*\n/)
    .map((p) => `<p>${p.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;')}</p>`)
    .join(' ')
}

/**
 * A RedditClient against this fake (Atom mode, as without a key since May 2026), reading both forums. `clock`: its time and its
 * waits come from a test clock (a wait moves the clock). Anything else given overrides the defaults.
 */
export function fakeRedditClient(
  fake: Pick<FakeReddit, 'url' | 'authUrl'>,
  opts: Partial<ConstructorParameters<typeof RedditClient>[0]> & { clock?: { now(): Date; advance(ms: number): void } } = {},
): RedditClient {
  const { clock, ...rest } = opts
  return new RedditClient({
    baseUrl: fake.url,
    authUrl: fake.authUrl,
    userAgent: 'linux:dibs:test',
    subreddits: ['GunAccessoriesForSale', 'gundeals'],
    ...(clock ? { now: () => clock.now().getTime(), sleep: async (ms: number) => clock.advance(ms) } : {}),
    ...rest,
  })
}

/**
 * The environment of a Dibs server reading this fake with a key (OAuth: flairs, /api/info re-checks), the
 * path that keeps those features since Reddit closed logged-out JSON.
 */
export function fakeOauthEnv(fake: Pick<FakeReddit, 'oauthUrl' | 'authUrl' | 'clientId' | 'clientSecret'>): Record<string, string> {
  return { REDDIT_BASE_URL: fake.oauthUrl, REDDIT_AUTH_URL: fake.authUrl, REDDIT_CLIENT_ID: fake.clientId, REDDIT_CLIENT_SECRET: fake.clientSecret }
}

/** fakeRedditClient with a key (OAuth mode). */
export function fakeOauthClient(
  fake: Pick<FakeReddit, 'url' | 'oauthUrl' | 'authUrl' | 'clientId' | 'clientSecret'>,
  opts: Parameters<typeof fakeRedditClient>[1] = {},
): RedditClient {
  return fakeRedditClient(fake, { baseUrl: fake.oauthUrl, clientId: fake.clientId, clientSecret: fake.clientSecret, ...opts })
}
