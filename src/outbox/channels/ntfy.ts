// ntfy channel: publishes to a topic URL on any ntfy server (https://ntfy.sh/<topic> or a
// self-hosted one) the way ntfy's publish API reads it: the message is the plain-text body, the
// rest are headers — Title, Priority (1 min … 5 max; default 3), Tags (comma-separated; emoji
// short codes show as emoji), Click (opened when the notification is tapped: the post) — and
// an optional access token as `Authorization: Bearer tk_…`. Retry rules in http.ts.
import type { Deps } from '../../deps'
import { formatDollars, priceDropText } from '../../forums/price-history'
import { judge, postTo, readEndpoint, recording, type HttpOpts } from './http'
import type { Channel, ExternalAlert } from './types'

/** Header values must be Latin-1: anything else is dropped (ntfy also accepts RFC 2047, which we need not). */
const latin1 = (s: string) => s.replace(/[^\x20-\x7e\xa0-\xff]/g, '').slice(0, 250)

export function ntfyRequest(alert: ExternalAlert, options: { priority?: number; tags?: string }, token: string | null) {
  const price = alert.post.price === null ? '' : ` · ${formatDollars(alert.post.price)}`
  const drop = alert.match.priceDrop ? priceDropText(alert.match.priceDrop) : null
  const headers: Record<string, string> = {
    'content-type': 'text/plain; charset=utf-8',
    title: latin1(alert.type === 'test' ? 'Dibs test notification' : drop ? drop.replace('→', '->') : `New ${alert.match.categoryLabel} match${price}`),
    priority: String(options.priority ?? 3),
    tags: latin1(options.tags?.trim() || 'shopping_cart'),
    click: alert.post.url,
  }
  if (token) headers.authorization = `Bearer ${token}`
  const body = `${alert.post.title}\nMatched: ${alert.match.matchedTerms.join(', ') || 'Term'}`
  return { headers, body }
}

export function ntfyChannel(deps: Pick<Deps, 'db' | 'now' | 'config'>, opts: HttpOpts = {}): Channel {
  return {
    name: 'ntfy',
    async send(row) {
      const ep = readEndpoint(deps, row)
      const { alert } = row.payload as { alert: ExternalAlert }
      const req = ntfyRequest(alert, ep.options as { priority?: number; tags?: string }, ep.secret)
      judge(await recording(deps, ep.id, () => postTo(deps, ep.url, req.headers, req.body, opts)))
    },
  }
}
