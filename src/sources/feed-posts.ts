// A feed's items as forum posts of a source, and how any source's posts read before they are stored ('Fetch now',
// `dibs sources test`). Pure but for the hash.
import { createHash } from 'node:crypto'
import type { ForumPost } from '../forums/listing'
import type { ForumNames } from '../forums/classify'
import { readPost } from '../forums/store'
import type { ParsedFeed } from './feed-parse'
import { hostKey } from './politeness'
import { postForum, type SourceRow } from './store'

/**
 * The post id of a feed item: `f<source id>_<hash of its guid>` (a guid is unique within one feed, not across
 * feeds). Stored posts are unique by it, so an item a later poll shows again is not stored twice.
 */
export const feedPostId = (sourceId: number, guid: string) => `f${sourceId}_${createHash('sha256').update(guid).digest('hex').slice(0, 16)}`

type Labelled = Pick<SourceRow, 'id' | 'name' | 'forum'>

/** Items → posts: the item's link (else the feed's), its author, its date (now when it has none), its first category as flair. */
export function feedToPosts(source: Labelled, feedUrl: string, feed: ParsedFeed, now: number): ForumPost[] {
  return feed.items.map((item) => {
    const id = feedPostId(source.id, item.guid)
    const url = item.url ?? feed.link ?? feedUrl
    return {
      redditId: id,
      name: id,
      title: item.title,
      url,
      linkUrl: url,
      content: item.body,
      author: item.author ?? '',
      subreddit: hostKey(feedUrl),
      flair: item.categories[0] ?? null,
      createdAt: new Date(item.publishedAt ?? now),
      forum: postForum(source.forum),
      sourceId: source.id,
      sourceName: source.name,
    }
  })
}

/** One post as 'Fetch now' shows it: what Dibs will store and how it classified it. */
export type PreviewPost = {
  id: string
  title: string
  url: string
  author: string
  createdAt: string
  /** wts | wtb | gd, or null: kept but in no category (a trade, no code) */
  category: 'wts' | 'wtb' | 'gd' | null
  /** the classification in words */
  classifiedAs: string
  state: string
  price: number | null
  location: string | null
  /** why it could not be read, if so */
  error: string | null
}

const CLASSIFIED_AS = { wts: 'WTS (for sale)', wtb: 'WTB (wanted)', gd: 'Deal' } as const

export function previewPosts(posts: ForumPost[], forums: ForumNames): PreviewPost[] {
  return posts.flatMap((p) => {
    const read = readPost(p, forums)
    if (read === null) return []
    const category = read.c.postType === 'wts' || read.c.postType === 'wtb' || read.c.postType === 'gd' ? read.c.postType : null
    return [
      {
        id: p.redditId,
        title: p.title,
        url: p.url,
        author: p.author,
        createdAt: p.createdAt.toISOString(),
        category,
        classifiedAs: read.error ? 'Unreadable: stored, never matched' : category ? CLASSIFIED_AS[category] : 'Unclassified (a trade or no WTS/WTB code)',
        state: read.state,
        price: read.price,
        location: read.location,
        error: read.error,
      },
    ]
  })
}
