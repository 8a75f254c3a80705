// Shared by the notification suites: a live match row + its `match.new` payload, as the matcher makes them.
import type { MatchItem } from '../../src/contract/events'
import { eq } from 'drizzle-orm'
import * as schema from '../../src/db/schema'
import { matches } from '../../src/db/schema'
import type { SqliteDeps } from '../../src/deps'
import { channelStore } from '../../src/notify/channel-store'
import { createChannels } from '../../src/outbox/channels'
import { webpushChannel } from '../../src/outbox/channels/webpush'
import { outboxWorker, type OutboxWorker } from '../../src/outbox/worker'
import type { FakePushService } from '../fakes/push-service'

/** The outbox worker over the real channels, web push trusting the fake push service's certificate. */
export function outboxWithPush(deps: SqliteDeps, push: Pick<FakePushService, 'cert'>, onDone?: Parameters<typeof outboxWorker>[2]): OutboxWorker {
  return outboxWorker(deps, createChannels(deps, channelStore, { push: webpushChannel(deps, channelStore, { transport: { tls: { ca: push.cert } } }) }), onDone)
}

let n = 0
export function makeMatch(
  deps: Pick<SqliteDeps, 'db' | 'now'>,
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

/**
 * The external-channel suites' kit over a running test server: `api` (JSON with the session cookie
 * and the Origin), `deliver` (one outbox run; `dueNow` first makes rows in backoff due), and
 * `liveMatchFor` (a term, a live match of it, dispatched now).
 */
export function channelKit(server: {
  deps: SqliteDeps & { outbox: OutboxWorker; dispatcher: { add(e: { userId: number; match: MatchItem; notify: boolean }): void; flush(): Promise<void> } }
}) {
  const { searchTerms, matchTerms, outbox } = schema
  async function api(method: string, path: string, cookie: string, json?: unknown) {
    const res = await fetch(`${server.deps.config.appUrl}${path}`, {
      method,
      headers: { origin: server.deps.config.appUrl, cookie, ...(json === undefined ? {} : { 'content-type': 'application/json' }) },
      body: json === undefined ? undefined : JSON.stringify(json),
    })
    const text = await res.text()
    return { status: res.status, body: text ? JSON.parse(text) : null }
  }
  async function deliver(opts: { dueNow?: boolean } = {}) {
    if (opts.dueNow) server.deps.db.update(outbox).set({ nextAttemptAt: new Date() }).where(eq(outbox.status, 'pending')).run()
    await server.deps.outbox.tick()
  }
  async function liveMatchFor(userId: number, term = 'trijicon', over: { delivery?: Record<string, unknown>; title?: string } = {}) {
    const t = server.deps.db
      .insert(searchTerms)
      .values({ userId, category: 'wts', term, ...(over.delivery ? { delivery: over.delivery as never } : {}) })
      .returning()
      .get()
    const m = makeMatch(server.deps, userId, { title: over.title ?? '[WTS] Trijicon RMR Type 2 - $450', term })
    server.deps.db.insert(matchTerms).values({ matchId: m.id, termId: t.id }).run()
    server.deps.dispatcher.add({ userId, match: m, notify: true })
    await server.deps.dispatcher.flush()
    return { match: m, termId: t.id }
  }
  return { api, deliver, liveMatchFor }
}
