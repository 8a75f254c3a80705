// Any forum's or deal site's feed → one item shape. Pure: no I/O; `now` bounds dates, `url` (where
// the feed was read) resolves relative links.
//
// Formats, told apart by the document itself, never by the Content-Type a server claims: RSS 2.0 (and
// 0.9x) `<rss><channel><item>`, RSS 1.0 `<rdf:RDF><item>`, Atom `<feed><entry>`, JSON Feed 1.0/1.1
// (`version: https://jsonfeed.org/version/…`), and Discourse's topic list (`/latest.json`,
// `/c/<slug>/<id>.json`: titles and authors, no bodies). XML is read by src/forums/xml.ts (DTD and
// entities refused, depth and element caps); the whole document is capped at 5 MB here too.
//
// Per item, in this order: the body is HTML in every format but JSON Feed's content_text, so it goes
// through htmlToText (scripts dropped, links keep their text only, entities decoded once); the link is
// resolved against xml:base, then the feed's URL, and only http(s) passes (a javascript: link is
// null); the guid falls back to the link, then to the title. Items are deduplicated by guid, then by
// link (the first wins: feeds list newest first). A date that cannot be read leaves publishedAt null
// and says so in `note`; one more than 5 minutes ahead is read as the fetch time, also noted.
// A document that is not a feed (an empty answer, a web page, a bot-protection block page, other
// JSON) throws NotAFeedError with a sentence an admin can act on.
import { FeedFormatError, child, childText, children, localName, parseXml, type XmlElement } from '../forums/xml'
import { decodeEntities, htmlToText } from '../forums/html-text'
import { httpUrl } from '../lib/urls'
import { parseFeedDate } from './feed-date'
import { detectForumSoftware, type ForumSoftware } from './forum-software'

export const MAX_FEED_BYTES = 5 * 1024 * 1024
const FUTURE_SLACK_MS = 5 * 60_000
const MAX_TITLE = 300
const MAX_BODY = 40_000

export type FeedFormat = 'rss2' | 'rss1' | 'atom' | 'jsonfeed' | 'discourse-json'

export type FeedItem = {
  guid: string
  title: string
  /** absolute http(s) URL of the post, or null when the feed gave none that passes */
  url: string | null
  author: string | null
  /** ms since the epoch; null when the item has no date or one that could not be read (see note) */
  publishedAt: number | null
  /** plain text, line breaks kept */
  body: string
  categories: string[]
  /** what was odd about this item in words (unreadable or future date, no link), or null */
  note: string | null
}

export type ParsedFeed = {
  format: FeedFormat
  title: string | null
  /** the site's home page as the feed names it */
  link: string | null
  software: ForumSoftware | null
  items: FeedItem[]
  /** items left out, each with the reason */
  skipped: string[]
  duplicates: number
}

export type NotAFeedReason = 'empty' | 'too_big' | 'encoding' | 'html' | 'blocked' | 'json' | 'refused' | 'malformed' | 'unknown'

/** The document is not a feed Dibs can read; the message says what it is instead. */
export class NotAFeedError extends FeedFormatError {
  constructor(
    readonly reason: NotAFeedReason,
    message: string,
  ) {
    super(message)
    this.name = 'NotAFeedError'
  }
}

export type ParseOpts = { url: string; now: number }

/** Reads a feed document (text, or the bytes as received). Throws NotAFeedError. */
export function parseFeed(input: string | Uint8Array, opts: ParseOpts): ParsedFeed {
  const text = (typeof input === 'string' ? checkedText(input) : decode(input)).replace(/^\uFEFF/, '')
  const head = text.trimStart()
  if (!head) throw new NotAFeedError('empty', 'Not a feed: the address returned an empty document')
  if (head[0] === '{' || head[0] === '[') return fromJson(head, opts)
  if (!head.replace(/<!--[\s\S]*?-->|<\?xml[^>]*\?>/g, '').trim())
    throw new NotAFeedError('empty', 'Not a feed: the address returned a document with nothing in it')
  if (head[0] !== '<') throw new NotAFeedError('unknown', `Not a feed: the address returned plain text ("${snippet(head)}")`)
  if (looksLikeHtml(head)) throw htmlError(head)
  let root: XmlElement
  try {
    root = parseXml(head)
  } catch (e) {
    if (!(e instanceof FeedFormatError)) throw e
    const refused = /DTD|entities/.test(e.message)
    throw new NotAFeedError(refused ? 'refused' : 'malformed', `Not a readable feed: ${e.message}`)
  }
  const kind = localName(root.name).toLowerCase()
  if (kind === 'rss') return fromRss(root, opts)
  if (kind === 'rdf') return fromRdf(root, opts)
  if (kind === 'feed') return fromAtom(root, opts)
  if (kind === 'html') throw htmlError(head)
  throw new NotAFeedError('unknown', `Not a feed: an XML document whose root is <${root.name}>, not <rss>, <rdf:RDF> or <feed>`)
}

function checkedText(text: string): string {
  if (text.length > MAX_FEED_BYTES || Buffer.byteLength(text) > MAX_FEED_BYTES) throw tooBig()
  return text
}

const tooBig = () => new NotAFeedError('too_big', `Not read: the feed is larger than ${MAX_FEED_BYTES / 1024 / 1024} MB`)

/** UTF-8 first (many feeds declare Latin-1 and send UTF-8); otherwise the encoding the XML prolog declares. */
function decode(bytes: Uint8Array): string {
  if (bytes.byteLength > MAX_FEED_BYTES) throw tooBig()
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    const declared = /^\s*<\?xml[^>]*\bencoding\s*=\s*["']([A-Za-z0-9._-]{1,40})["']/.exec(new TextDecoder('latin1').decode(bytes.subarray(0, 200)))?.[1]
    if (declared && !/^utf-?8$/i.test(declared)) {
      try {
        return new TextDecoder(declared).decode(bytes)
      } catch {
        throw new NotAFeedError('encoding', `Not read: the feed declares the encoding "${declared}", which Dibs does not know`)
      }
    }
    throw new NotAFeedError('encoding', 'Not read: the feed is not valid UTF-8, and its XML declaration names no other encoding')
  }
}

const snippet = (s: string) => s.replace(/\s+/g, ' ').slice(0, 80)

function looksLikeHtml(head: string): boolean {
  const start = head
    .slice(0, 2048)
    .replace(/<!--[\s\S]*?-->|<\?xml[^>]*\?>/g, '')
    .trimStart()
  return /^<!doctype\s+html/i.test(start) || /^<html[\s>]/i.test(start) || /^<head[\s>]/i.test(start) || /^<body[\s>]/i.test(start)
}

const BLOCK_PAGE =
  /cloudflare|attention required|you have been blocked|access denied|captcha|ddos-guard|just a moment|network policy|blocked by network security/i

function htmlError(head: string): NotAFeedError {
  const title = /<title[^>]*>([\s\S]{0,300}?)<\/title>/i.exec(head)?.[1]
  const named = title ? ` ("${snippet(decodeEntities(title)).trim()}")` : ''
  if (BLOCK_PAGE.test(title ?? '') || BLOCK_PAGE.test(head.slice(0, 20_000)))
    return new NotAFeedError(
      'blocked',
      `Not a feed: the site answered with a bot-protection block page${named}. The forum (or its CDN) refuses this server; ask its admins to allow feed readers, or try again later`,
    )
  return new NotAFeedError(
    'html',
    `Not a feed: the address returned a web page${named}, not RSS, Atom or JSON Feed. Open the forum and copy the address of its RSS link`,
  )
}

// ---- XML formats ----

type Draft = Omit<FeedItem, 'note' | 'publishedAt'> & { date: string | null }

function fromRss(root: XmlElement, opts: ParseOpts): ParsedFeed {
  const channel = child(root, 'channel')
  if (!channel) throw new NotAFeedError('unknown', 'Not a feed: an <rss> document without a <channel>')
  const base = resolveBase(channel, resolveBase(root, opts.url))
  const drafts = children(channel, 'item').map((item) => rssItem(item, resolveBase(item, base)))
  return finish('rss2', root, channel, drafts, opts, base)
}

function fromRdf(root: XmlElement, opts: ParseOpts): ParsedFeed {
  const channel = child(root, 'channel')
  const base = resolveBase(root, opts.url)
  const drafts = children(root, 'item').map((item) => rssItem(item, resolveBase(item, base)))
  return finish('rss1', root, channel ?? root, drafts, opts, base)
}

function rssItem(item: XmlElement, base: string): Draft {
  const guidEl = child(item, 'guid')
  const guid = guidEl?.text.trim() || item.attrs.get('rdf:about')?.trim() || ''
  const permalinkGuid = guidEl && guidEl.attrs.get('isPermaLink') !== 'false' ? guid : null
  const link = absolute(childText(item, 'link') || permalinkGuid, base)
  return {
    guid,
    title: clean(childText(item, 'title') ?? ''),
    url: link,
    author: rssAuthor(item),
    date: childText(item, 'pubDate') ?? childText(item, 'date') ?? childText(item, 'published') ?? childText(item, 'updated'),
    body: htmlBody(childText(item, 'encoded') || childText(item, 'description') || ''),
    categories: children(item, 'category').map((c) => clean(c.text)),
  }
}

/** dc:creator, or RSS's "email (Name)" author. */
function rssAuthor(item: XmlElement): string | null {
  const creator = childText(item, 'creator')
  if (creator) return clean(creator.replace(/^@/, ''))
  const raw = childText(item, 'author')
  if (!raw) return null
  return clean(/\(([^)]+)\)\s*$/.exec(raw)?.[1] ?? raw)
}

function fromAtom(root: XmlElement, opts: ParseOpts): ParsedFeed {
  const base = resolveBase(root, opts.url)
  const drafts = children(root, 'entry').map((entry) => atomEntry(entry, resolveBase(entry, base), root))
  return finish('atom', root, root, drafts, opts, base)
}

function atomEntry(entry: XmlElement, base: string, feed: XmlElement): Draft {
  const links = children(entry, 'link')
  const alt = links.find((l) => (l.attrs.get('rel') ?? 'alternate') === 'alternate') ?? links[0]
  const content = child(entry, 'content') ?? child(entry, 'summary')
  const author = child(entry, 'author') ?? child(feed, 'author')
  return {
    guid: childText(entry, 'id') ?? '',
    title: atomText(child(entry, 'title')),
    url: alt ? absolute(alt.attrs.get('href') ?? null, resolveBase(alt, base)) : null,
    author: author ? clean(childText(author, 'name') ?? '') || null : null,
    date: childText(entry, 'published') ?? childText(entry, 'updated') ?? childText(entry, 'date') ?? childText(entry, 'issued'),
    body: content ? atomBody(content) : '',
    categories: children(entry, 'category').map((c) => clean(c.attrs.get('label') || c.attrs.get('term') || c.text)),
  }
}

/** An Atom text construct: type="text" as written, "html" through htmlToText, "xhtml" as its text. */
function atomText(el: XmlElement | undefined): string {
  if (!el) return ''
  const type = el.attrs.get('type') ?? 'text'
  if (type === 'html') return clean(htmlToText(el.text))
  if (type === 'xhtml') return clean(deepText(el))
  return clean(el.text)
}

function atomBody(el: XmlElement): string {
  const type = el.attrs.get('type') ?? 'text'
  if (type === 'xhtml') return htmlBody(deepText(el, '\n'))
  if (type === 'html' || type === 'text/html') return htmlBody(el.text)
  return el.text.trim()
}

/** The text of an element and its descendants (xhtml content; element order within one parent is approximate). */
function deepText(el: XmlElement, sep = ' '): string {
  return [el.text, ...el.children.map((c) => deepText(c, sep))].filter((t) => t.trim()).join(sep)
}

function resolveBase(el: XmlElement, base: string): string {
  const own = el.attrs.get('xml:base')
  if (!own) return base
  try {
    return new URL(own.trim(), base).href
  } catch {
    return base
  }
}

function finish(format: FeedFormat, root: XmlElement, channel: XmlElement, drafts: Draft[], opts: ParseOpts, base: string): ParsedFeed {
  const links = children(channel, 'link')
  const home = links.find((l) => !l.attrs.get('rel') || l.attrs.get('rel') === 'alternate')
  const gen = child(channel, 'generator')
  const generator = gen ? [gen.text, gen.attrs.get('uri') ?? ''].join(' ').trim() : null
  const out = collect(drafts, opts)
  const software = detectForumSoftware({ generator, namespaces: [...root.attrs.values()], items: out.items })
  if (software?.name === 'phpbb') for (const item of out.items) item.title = withoutForumPrefix(item)
  return { format, title: atomText(child(channel, 'title')) || null, link: absolute(home?.attrs.get('href') ?? home?.text ?? null, base), software, ...out }
}

/** phpBB titles its feed entries "Forum • Subject"; the forum is already a category, and the subject must come first for the title grammar. */
function withoutForumPrefix(item: FeedItem): string {
  const forum = item.categories.find((c) => item.title.startsWith(`${c} • `))
  return forum ? item.title.slice(forum.length + 3) : item.title
}

// ---- JSON formats ----

function fromJson(text: string, opts: ParseOpts): ParsedFeed {
  let doc: unknown
  try {
    doc = JSON.parse(text)
  } catch {
    throw new NotAFeedError('malformed', 'Not a readable feed: the address returned broken JSON')
  }
  if (isObject(doc) && typeof doc.version === 'string' && doc.version.startsWith('https://jsonfeed.org/version/')) return fromJsonFeed(doc, opts)
  if (isObject(doc) && isObject(doc.topic_list)) return fromDiscourseJson(doc, opts)
  throw new NotAFeedError('json', 'Not a feed: the address returned JSON that is neither a JSON Feed nor a Discourse topic list (latest.json)')
}

type Obj = Record<string, unknown>
const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v)
const str = (v: unknown): string | null => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : null)
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : [])

function fromJsonFeed(doc: Obj, opts: ParseOpts): ParsedFeed {
  const base = absolute(str(doc.feed_url), opts.url) ?? opts.url
  const feedAuthor = jsonAuthor(doc)
  const drafts = list(doc.items)
    .filter(isObject)
    .map((item): Draft => ({
      guid: str(item.id) ?? '',
      title: clean(str(item.title) ?? ''),
      url: absolute(str(item.url) ?? str(item.external_url), base),
      author: jsonAuthor(item) ?? feedAuthor,
      date: str(item.date_published) ?? str(item.date_modified),
      body: typeof item.content_html === 'string' ? htmlBody(item.content_html) : (str(item.content_text) ?? str(item.summary) ?? '').trim(),
      categories: list(item.tags)
        .map(str)
        .filter((t): t is string => !!t)
        .map(clean),
    }))
  const out = collect(drafts, opts)
  return { format: 'jsonfeed', title: clean(str(doc.title) ?? '') || null, link: absolute(str(doc.home_page_url), base), software: null, ...out }
}

/** JSON Feed 1.1 `authors[0]`, else 1.0 `author`. */
function jsonAuthor(o: Obj): string | null {
  const a = list(o.authors).find(isObject) ?? (isObject(o.author) ? o.author : null)
  return a ? clean(str(a.name) ?? '') || null : null
}

/** Discourse `/latest.json` or a category's `.json`: topics with their creator in `posters`, users beside them. */
function fromDiscourseJson(doc: Obj, opts: ParseOpts): ParsedFeed {
  const names = new Map<unknown, string>()
  for (const u of list(doc.users).filter(isObject)) if (str(u.username)) names.set(u.id, str(u.username)!)
  const drafts = list((doc.topic_list as Obj).topics)
    .filter(isObject)
    .map((t): Draft => {
      const id = str(t.id) ?? ''
      const op =
        list(t.posters)
          .filter(isObject)
          .find((p) => /original poster/i.test(str(p.description) ?? '')) ?? list(t.posters).find(isObject)
      return {
        guid: id ? `topic-${id}` : '',
        title: clean(str(t.title) ?? htmlToText(str(t.fancy_title) ?? '')),
        url: id ? absolute(`/t/${encodeURIComponent(str(t.slug) || 'topic')}/${encodeURIComponent(id)}`, opts.url) : null,
        author: (op ? names.get(op.user_id) : undefined) ?? null,
        date: str(t.created_at),
        body: htmlBody(str(t.excerpt) ?? ''),
        categories: list(t.tags)
          .map((tag) => (isObject(tag) ? str(tag.name) : str(tag)))
          .filter((x): x is string => !!x),
      }
    })
  const out = collect(drafts, opts)
  return {
    format: 'discourse-json',
    title: null,
    link: absolute('/', opts.url),
    software: { name: 'discourse', evidence: 'a Discourse topic list (latest.json)' },
    ...out,
  }
}

// ---- shared ----

/** Resolves against base; only absolute http(s) URLs come out. */
function absolute(raw: string | null | undefined, base: string): string | null {
  if (!raw?.trim()) return null
  try {
    return httpUrl(new URL(raw.trim(), base).href)
  } catch {
    return null
  }
}

const clean = (s: string) => s.replace(/\s+/g, ' ').trim()

/**
 * A feed's HTML body as text. As a browser shows it: the source's own line breaks are spaces (forum
 * software writes `<br />` and a newline), and a block that opens starts a new line ("…details<p>Statistics").
 */
function htmlBody(html: string): string {
  return htmlToText(html.replace(/[ \t]*\r?\n[ \t]*/g, ' ').replace(/(?=<(p|div|h[1-6]|blockquote|pre|table|ul|ol)[\s>])/gi, '\n'))
}

/** Dates, fallbacks, caps, and the dedupe by guid then link. */
function collect(drafts: Draft[], { now }: ParseOpts): Pick<ParsedFeed, 'items' | 'skipped' | 'duplicates'> {
  const items: FeedItem[] = []
  const skipped: string[] = []
  const guids = new Set<string>()
  const urls = new Set<string>()
  let duplicates = 0
  for (const [i, d] of drafts.entries()) {
    const title = d.title.slice(0, MAX_TITLE) || d.body.split('\n')[0]!.slice(0, MAX_TITLE)
    if (!title && !d.url) {
      skipped.push(`item ${i + 1}: no title, text or link`)
      continue
    }
    const guid = d.guid.trim() || d.url || `title:${title}`
    if (guids.has(guid) || (d.url !== null && urls.has(d.url))) {
      duplicates++
      continue
    }
    guids.add(guid)
    if (d.url) urls.add(d.url)
    const notes: string[] = []
    let publishedAt = parseFeedDate(d.date)
    if (d.date === null || !d.date.trim()) notes.push('the item has no date')
    else if (publishedAt === null) notes.push(`its date "${snippet(d.date)}" could not be read`)
    else if (publishedAt > now + FUTURE_SLACK_MS) {
      notes.push(`its date ${new Date(publishedAt).toISOString()} is in the future; read as the fetch time`)
      publishedAt = now
    }
    if (!d.url) notes.push('the item has no http(s) link')
    items.push({
      guid,
      title,
      url: d.url,
      author: d.author || null,
      publishedAt,
      body: d.body.slice(0, MAX_BODY),
      categories: [...new Set(d.categories.filter(Boolean))],
      note: notes.length ? notes.join('; ') : null,
    })
  }
  return { items, skipped, duplicates }
}
