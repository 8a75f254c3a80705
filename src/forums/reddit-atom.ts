// Reddit's Atom feed (`/r/A+B/new/.rss`, what still answers without a key since May 2026) → ForumPost.
// Pure: no I/O; `now` bounds dates.
//
// An entry gives: <id>t3_…</id>, <title>, <author><name>/u/x</name>, <published> (older feeds only
// <updated>), <link href=permalink>, <category term="sub" label="r/sub"/>, and <content type="html">:
// for a self post `<!-- SC_OFF --><div class="md">…</div><!-- SC_ON -->`, then for every post the trailer
// `&#32; submitted by &#32; <a href=…/user/x> /u/x </a> <br/> <span><a href=LINK>[link]</a></span> &#32;
// <span><a href=PERMALINK>[comments]</a></span>`. [link] is the post itself for a self post, the target
// for a link post, and a relative /r/… URL for a crosspost. No flair, no score, no author flair.
// Entries without an id, title or time are skipped and counted; a time more than 5 minutes in the
// future is read as the fetch time (a wrong clock never puts a post ahead of the ones after it).
import { httpUrl } from '../lib/urls'
import { htmlToText } from './html-text'
import { absoluteRedditUrl, type ForumPost } from './listing'
import { child, childText, children, FeedFormatError, localName, parseXml, type XmlElement } from './xml'

export type ParsedAtom = { posts: ForumPost[]; skipped: number }

const ID = /^t3_([a-z0-9]{1,16})$/
const FUTURE_SLACK_MS = 5 * 60_000

export function parseRedditAtom(text: string, now: number): ParsedAtom {
  const root = parseXml(text)
  if (localName(root.name) !== 'feed') throw new FeedFormatError(`expected an Atom <feed>, got <${root.name}>`)
  const posts: ForumPost[] = []
  let skipped = 0
  for (const entry of children(root, 'entry')) {
    const post = entryToPost(entry, now)
    if (post) posts.push(post)
    else skipped++
  }
  return { posts, skipped }
}

function entryToPost(entry: XmlElement, now: number): ForumPost | null {
  const id = ID.exec(childText(entry, 'id') ?? '')?.[1]
  const title = childText(entry, 'title')
  const when = Date.parse(childText(entry, 'published') ?? childText(entry, 'updated') ?? '')
  if (!id || !title || !Number.isFinite(when) || when <= 0) return null
  const permalink = httpUrl(child(entry, 'link')?.attrs.get('href') ?? null)
  const category = child(entry, 'category')
  const subreddit = (category?.attrs.get('term') ?? /\/r\/([A-Za-z0-9_]+)\//.exec(permalink ?? '')?.[1] ?? '').trim()
  if (!subreddit) return null
  const url = permalink ?? `https://www.reddit.com/r/${subreddit}/comments/${id}/`
  const author = (childText(child(entry, 'author') ?? entry, 'name') ?? '').replace(/^\/?u\//, '') || '[deleted]'
  const { body, link } = splitContent(childText(entry, 'content') ?? '')
  return {
    redditId: id,
    name: `t3_${id}`,
    title: title.replace(/\s+/g, ' ').trim(),
    url,
    linkUrl: httpUrl(absoluteRedditUrl(link)) ?? url,
    content: body,
    author,
    subreddit,
    flair: null,
    authorFlair: null,
    createdAt: new Date(when > now + FUTURE_SLACK_MS ? now : when),
  }
}

const TRAILER = /&#32;\s*submitted by\s*&#32;[\s\S]*$/
const LINK = /<a href="([^"]*)">\[link\]<\/a>/

/** The post's own text (SC_OFF wrapper and trailer removed) and its [link] target. */
function splitContent(html: string): { body: string; link: string | null } {
  const trailer = TRAILER.exec(html)
  const link = trailer ? (LINK.exec(trailer[0])?.[1] ?? null) : null
  const own = trailer ? html.slice(0, trailer.index) : html
  const md = /<!-- SC_OFF -->([\s\S]*?)<!-- SC_ON -->/.exec(own)
  return { body: htmlToText(md ? md[1]! : own), link: link === null ? null : htmlToText(link) }
}
