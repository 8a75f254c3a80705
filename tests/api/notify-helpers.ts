// Shared by the notification suites: a live match row + its `match.new` payload, as the matcher makes them.
import type { MatchItem } from '../../src/contract/events'
import { matches } from '../../src/db/schema'
import type { Deps } from '../../src/deps'
import { createChannels } from '../../src/outbox/channels'
import { webpushChannel } from '../../src/outbox/channels/webpush'
import { outboxWorker, type OutboxWorker } from '../../src/outbox/worker'
import type { FakePushService } from '../fakes/push-service'

/** The outbox worker over the real channels, web push trusting the fake push service's certificate. */
export function outboxWithPush(deps: Deps, push: Pick<FakePushService, 'cert'>, onDone?: Parameters<typeof outboxWorker>[2]): OutboxWorker {
  return outboxWorker(deps, createChannels(deps, { push: webpushChannel(deps, { transport: { tls: { ca: push.cert } } }) }), onDone)
}

let n = 0
export function makeMatch(
  deps: Pick<Deps, 'db' | 'now'>,
  userId: number,
  over: Partial<{ category: 'wts' | 'wtb' | 'gd'; title: string; term: string; source: string }> = {},
): MatchItem {
  n++
  const category = over.category ?? 'wts'
  const title = over.title ?? `[WTS] Trijicon RMR #${n} - $${300 + n}`
  const url = `https://www.reddit.com/r/GunAccessoriesForSale/comments/x${n}/post_${n}/`
  const row = deps.db
    .insert(matches)
    .values({
      userId,
      category,
      matchedTerms: [over.term ?? 'trijicon'],
      postTitle: title,
      postUrl: url,
      postAuthor: 'seller' + n,
      source: over.source ?? 'live',
      matchedAt: deps.now(),
    })
    .returning()
    .get()
  const at = deps.now().toISOString()
  return {
    id: row.id,
    postId: null,
    title,
    url,
    linkUrl: null,
    category,
    matchedTerms: row.matchedTerms,
    author: row.postAuthor,
    createdAt: at,
    postCreatedAt: at,
    isNew: true,
    source: row.source,
    archivedAt: null,
    state: 'open',
  }
}
