// A ForumPost as the Reddit client would hand it over, for tests that store posts directly.
import type { ForumPost } from '../../src/forums/listing'

let seq = 0
export function forumPost(title: string, opts: Partial<ForumPost> & { ageMs?: number; now?: number } = {}): ForumPost {
  const { ageMs, now, ...rest } = opts
  const id = `t${(++seq).toString(36)}x${Math.random().toString(36).slice(2, 6)}`
  const subreddit = rest.subreddit ?? 'GunAccessoriesForSale'
  const url = `https://www.reddit.com/r/${subreddit}/comments/${id}/`
  return {
    redditId: id,
    name: `t3_${id}`,
    title,
    url,
    linkUrl: url,
    content: '',
    author: 'seller',
    subreddit,
    flair: null,
    createdAt: new Date((now ?? Date.now()) - (ageMs ?? 60_000)),
    ...rest,
  }
}
