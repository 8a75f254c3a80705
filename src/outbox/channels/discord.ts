// Discord channel: executes a channel webhook (https://discord.com/api/webhooks/<id>/<token>)
// with one embed: the post title linking to the post, the price, the matched terms, the forum.
// Discord answers 204; a 429 carries `retry_after` (seconds, in the JSON body) and Retry-After:
// the row waits at least that long. Other 4xx (a deleted webhook: 404) fail for good.
import type { Deps } from '../../deps'
import { formatDollars, priceDropText } from '../../forums/price-history'
import { judge, postTo, readEndpoint, recording, retryAfterHeaderMs, type HttpOpts, type PostResult } from './http'
import type { Channel, ExternalAlert } from './types'

const cut = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s)

export function discordBody(alert: ExternalAlert, appName: string) {
  const fields = [
    ...(alert.post.price === null ? [] : [{ name: 'Price', value: formatDollars(alert.post.price), inline: true }]),
    { name: 'Matched', value: cut(alert.match.matchedTerms.join(', ') || 'Term', 1024), inline: true },
    { name: 'Forum', value: alert.match.categoryLabel, inline: true },
  ]
  return {
    username: cut(appName, 80),
    content: alert.type === 'test' ? `${appName} test notification` : undefined,
    allowed_mentions: { parse: [] as string[] },
    embeds: [
      {
        title: cut(alert.post.title, 256),
        url: alert.post.url,
        description: cut(
          `${alert.match.priceDrop ? priceDropText(alert.match.priceDrop) : `New ${alert.match.categoryLabel} match`}${alert.post.author ? ` by u/${alert.post.author}` : ''}`,
          4096,
        ),
        color: 0x2f9e44,
        fields,
        timestamp: alert.match.matchedAt,
      },
    ],
  }
}

/** Discord's wait: `retry_after` (seconds) in the body, else the Retry-After header. */
export function discordRetryAfterMs(r: PostResult): number | null {
  try {
    const v = (JSON.parse(r.text) as { retry_after?: unknown }).retry_after
    if (typeof v === 'number' && v >= 0) return Math.ceil(v * 1000)
  } catch {
    // not JSON: fall back to the header
  }
  return retryAfterHeaderMs(r.headers)
}

export function discordChannel(deps: Pick<Deps, 'db' | 'now' | 'config'>, opts: HttpOpts = {}): Channel {
  return {
    name: 'discord',
    async send(row) {
      const ep = readEndpoint(deps, row)
      const { alert } = row.payload as { alert: ExternalAlert }
      const body = JSON.stringify(discordBody(alert, deps.config.appName))
      const r = await recording(deps, ep.id, () => postTo(deps, ep.url, { 'content-type': 'application/json' }, body, opts))
      judge(r, r.status === 429 ? discordRetryAfterMs(r) : null)
    },
  }
}
