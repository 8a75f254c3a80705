// What every way in does with new posts (a Reddit poll, a feed poll, a push): store them once, match them, and put
// them on the live feed. `announceStored` is the part after storing (the Reddit poll stores, re-reads its known
// posts and records gaps in between); `ingestPosts` is the whole of it for feeds and pushes.
import type { Post } from '../db/schema'
import type { Deps } from '../deps'
import { noteNewestSeen } from '../db/restore'
import type { ForumPost } from '../forums/listing'
import { feedItem, LIVE_WINDOW_MS, storePosts } from '../forums/store'
import type { WithMatcher } from '../matches/matcher'
import { matchPosts } from '../matches/runner'

export type Announced = { matchesCreated: number; usersMatched: number }

/** Matches stored posts at once (alert latency from `receivedAt`) and emits post.new for the live feed. */
export async function announceStored(deps: Deps & WithMatcher, stored: Post[], times: { receivedAt: number; storedAt: number }): Promise<Announced> {
  // DATA_DIR remembers the newest post it has seen: a restored backup is noticed by it.
  if (stored.length > 0) noteNewestSeen(deps.config.dataDir, Math.max(...stored.map((p) => p.createdAt.getTime())))
  const matched = await matchPosts(deps, stored, 'live', times)
  const feedSince = deps.now().getTime() - LIVE_WINDOW_MS
  for (const p of stored) if (p.postType !== null && p.createdAt.getTime() >= feedSince) deps.bus.emit('post.new', { post: feedItem(p) })
  return { matchesCreated: matched.created.length, usersMatched: matched.users.size }
}

/** Stores the posts not seen before, matches and announces them. */
export async function ingestPosts(deps: Deps & WithMatcher, posts: ForumPost[], receivedAt: number): Promise<Announced & { stored: Post[] }> {
  const stored = await storePosts(deps, posts)
  return { stored, ...(await announceStored(deps, stored, { receivedAt, storedAt: deps.now().getTime() })) }
}
