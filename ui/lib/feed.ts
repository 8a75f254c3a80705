// Live-feed rules (spec §4): an inserted post is taken only when created within the last 7 days
// with a valid category, and only while page 1 of its tab is shown.
import type { Category } from '../../src/access/categories'
import type { FeedItem } from '../../src/contract/events'

export const FEED_WINDOW_MS = 7 * 24 * 60 * 60 * 1000
export const HIGHLIGHT_MS = 2000
/** The live feed's tabs; `deals` is the deals forum's name ('Gundeals' for the spec's pair). */
export const feedTabs = (deals = 'Gundeals'): { id: Category; label: string; empty: string }[] => [
  { id: 'wts', label: 'WTS', empty: 'No WTS posts in the last 7 days' },
  { id: 'wtb', label: 'WTB', empty: 'No WTB posts in the last 7 days' },
  { id: 'gd', label: deals.toUpperCase(), empty: `No ${deals.toLowerCase()} posts in the last 7 days` },
]

/** The tab a post belongs to: gd for the deals forum, else its wts/wtb classification; null if neither. */
export function feedCategory(post: Pick<FeedItem, 'forum' | 'postType'>): Category | null {
  if (post.postType === 'gd' || post.forum === 'gd') return 'gd'
  if (post.postType === 'wts' || post.postType === 'wtb') return post.postType
  return null
}

export function acceptsLivePost(post: FeedItem, tab: Category, page: number, now: Date = new Date()): boolean {
  if (page !== 1) return false
  if (feedCategory(post) !== tab) return false
  const created = new Date(post.createdAt).getTime()
  return Number.isFinite(created) && now.getTime() - created <= FEED_WINDOW_MS
}

/** Puts a live post at the top of page 1 (once), keeping the page size. */
export function insertLive<T extends { id: number }>(list: T[], post: T, pageSize = 10): T[] {
  if (list.some((p) => p.id === post.id)) return list
  return [post, ...list].slice(0, pageSize)
}
