// Reddit's /api/info answer → what the re-check needs of each post. Pure: no I/O, no clock.
//
// `GET /api/info.json?id=t3_a,t3_b,…` (public) or `GET https://oauth.reddit.com/api/info?id=…`
// (OAuth) takes up to 100 fullnames and answers a Listing of the t3 objects it still has, in any
// order; ids it does not know are simply absent. A removed post is still there, with
// `removed_by_category` ("moderator", "automod_filtered", "reddit", "deleted", …) and its body
// replaced by "[removed]" or "[deleted]"; an author who deleted their account shows as "[deleted]".
import { MalformedListingError, parseListingText, toForumPost, type ForumPost } from './listing'

/** Reddit will not answer more ids than this in one /api/info request. */
export const INFO_BATCH = 100

export type PostSnapshot = {
  redditId: string
  title: string
  content: string
  flair: string | null
  author: string
  removedByCategory: string | null
  /** the whole post as read (subreddit, permalink, created time …): the explainer reads a post Dibs never stored */
  post?: ForumPost
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

/** The t3 children of an /api/info Listing; throws MalformedListingError on a bad envelope. */
export function parseInfoText(text: string): PostSnapshot[] {
  parseListingText(text) // validates the envelope (kind Listing, children array)
  const body = JSON.parse(text) as { data: { children: unknown[] } }
  const out: PostSnapshot[] = []
  for (const child of body.data.children) {
    if (!isObject(child) || child.kind !== 't3' || !isObject(child.data)) continue
    const post = toForumPost(child.data)
    if (post === null) continue
    const removed = child.data.removed_by_category
    out.push({
      redditId: post.redditId,
      title: post.title,
      content: post.content,
      flair: post.flair,
      author: post.author,
      removedByCategory: typeof removed === 'string' && removed ? removed : null,
      post,
    })
  }
  return out
}

/** The `id` parameter: fullnames, at most INFO_BATCH. */
export function infoQuery(redditIds: string[]): string {
  if (redditIds.length === 0 || redditIds.length > INFO_BATCH) throw new MalformedListingError(`info takes 1–${INFO_BATCH} ids, got ${redditIds.length}`)
  return redditIds.map((id) => `t3_${id}`).join(',')
}
