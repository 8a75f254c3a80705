// Discord channel: executes a channel webhook (https://discord.com/api/webhooks/<id>/<token>)
// with one embed: the post title linking to the post, the price, the matched terms, the forum.
// Discord answers 204; a 429 carries `retry_after` (seconds, in the JSON body) and Retry-After:
// the row waits at least that long. Other 4xx (a deleted webhook: 404) fail for good.
import { formatDollars, priceDropText } from '../../forums/price-history'
import { judge, retryAfterHeaderMs, type PostResult } from './http'
import { alertLinks, alertText, cut, defineProvider, fieldError, publicUrlField } from './provider'
import type { ExternalAlert } from './types'

const DISCORD_HOSTS = ['discord.com', 'discordapp.com', 'ptb.discord.com', 'canary.discord.com']

export function discordBody(alert: ExternalAlert, appName: string) {
  if (alert.type === 'summary') {
    const t = alertText(alert, appName)
    return {
      username: cut(appName, 80),
      allowed_mentions: { parse: [] as string[] },
      embeds: [{ title: cut(t.title, 256), url: t.url, description: cut(t.lines.join('\n'), 4096), color: 0x2f9e44 }],
    }
  }
  const links = alertLinks(alert)
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
          `${alert.match.priceDrop ? priceDropText(alert.match.priceDrop) : `New ${alert.match.categoryLabel} match`}${alert.post.author ? ` by u/${alert.post.author}` : ''}${links.claim ? `\n[Claim](${links.claim}) · [Open](${links.open})` : ''}`,
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

export const discord = defineProvider({
  kind: 'discord',
  label: 'Discord',
  setup: "In a Discord channel's settings: Integrations → Webhooks → New Webhook → Copy Webhook URL.",
  fields: [{ name: 'url', label: 'Webhook URL', type: 'url', required: true, placeholder: 'https://discord.com/api/webhooks/…' }],
  async validate(deps, input, resolve) {
    // Discord's own host and path first: no need to resolve a name that is refused anyway.
    const text = typeof input.url === 'string' ? input.url.trim() : ''
    if (!deps.config.channelsAllowPrivate) {
      const u = URL.canParse(text) ? new URL(text) : null
      if (!u || !DISCORD_HOSTS.includes(u.hostname.toLowerCase()) || !/^\/api\/webhooks\/\d+\/[\w-]+\/?$/.test(u.pathname))
        throw fieldError('url', 'Enter a Discord webhook URL (https://discord.com/api/webhooks/…)')
    }
    const url = await publicUrlField(deps, input, 'url', 'Webhook URL', resolve)
    return { url: url.toString(), secret: null, options: {} }
  },
  // Discord webhook URLs show their id, never their token (the token is what lets anyone post).
  view: (ep) => ({ url: ep.url.replace(/(\/api\/webhooks\/[^/]+\/).+$/, '$1…') }),
  request: (deps, ep, alert) => ({
    method: 'POST',
    url: ep.url,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(discordBody(alert, deps.config.appName)),
  }),
  judge: (r) => judge(r, r.status === 429 ? discordRetryAfterMs(r) : null),
})
