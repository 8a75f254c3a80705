// ntfy channel: publishes to a topic URL on any ntfy server (https://ntfy.sh/<topic> or a
// self-hosted one) the way ntfy's publish API reads it: the message is the plain-text body, the
// rest are headers — Title, Priority (1 min … 5 max; default 3), Tags (comma-separated; emoji
// short codes show as emoji), Click (opened when the notification is tapped: the post) — and
// an optional access token as `Authorization: Bearer tk_…`. Retry rules in http.ts.
import { formatDollars, priceDropText } from '../../forums/price-history'
import { alertLinks, alertText, defineProvider, fieldError, publicUrlField } from './provider'
import type { ExternalAlert } from './types'

/** Header values must be Latin-1: anything else is dropped (ntfy also accepts RFC 2047, which we need not). */
const latin1 = (s: string) => s.replace(/[^\x20-\x7e\xa0-\xff]/g, '').slice(0, 250)

export function ntfyRequest(alert: ExternalAlert, options: { priority?: number; tags?: string }, token: string | null) {
  const price = alert.post.price === null ? '' : ` · ${formatDollars(alert.post.price)}`
  const drop = alert.match.priceDrop ? priceDropText(alert.match.priceDrop) : null
  const summary = alert.type === 'summary' ? alertText(alert, 'Dibs') : null
  const links = alertLinks(alert)
  const headers: Record<string, string> = {
    'content-type': 'text/plain; charset=utf-8',
    title: latin1(
      summary
        ? summary.title
        : alert.type === 'test'
          ? 'Dibs test notification'
          : drop
            ? drop.replace('→', '->')
            : `New ${alert.match.categoryLabel} match${price}`,
    ),
    priority: String(options.priority ?? 3),
    tags: latin1(options.tags?.trim() || 'shopping_cart'),
    click: alert.post.url,
  }
  // ntfy's action buttons (`view, <label>, <url>`; ';' between actions)
  if (links.claim) headers.actions = latin1(`view, Claim, ${links.claim}; view, Open, ${links.open}`)
  if (token) headers.authorization = `Bearer ${token}`
  const body = summary ? summary.lines.join('\n') : `${alert.post.title}\nMatched: ${alert.match.matchedTerms.join(', ') || 'Term'}`
  return { headers, body }
}

type NtfyOptions = { priority?: number; tags?: string }

export const ntfy = defineProvider({
  kind: 'ntfy',
  label: 'ntfy',
  setup: 'A topic URL on ntfy.sh or your own ntfy server; subscribe to the same topic in the ntfy app.',
  fields: [
    { name: 'url', label: 'Topic URL', type: 'url', required: true, placeholder: 'https://ntfy.sh/my-secret-topic' },
    { name: 'token', label: 'Access token (optional)', type: 'secret', required: false },
    {
      name: 'priority',
      label: 'Priority',
      type: 'select',
      required: false,
      options: ['1 (min)', '2 (low)', '3 (default)', '4 (high)', '5 (max)'].map((l, i) => ({ value: String(i + 1), label: l })),
    },
    { name: 'tags', label: 'Tags', type: 'text', required: false, placeholder: 'shopping_cart' },
  ],
  async validate(deps, input, resolve) {
    const url = await publicUrlField(deps, input, 'url', 'Topic URL', resolve)
    if (url.pathname.replace(/\/+$/, '').split('/').filter(Boolean).length !== 1)
      throw fieldError('url', 'Enter the topic URL, e.g. https://ntfy.sh/my-secret-topic')
    const priority = input.priority === undefined || input.priority === '' ? 3 : Number(input.priority)
    if (!Number.isInteger(priority) || priority < 1 || priority > 5) throw fieldError('priority', 'Priority is 1 (min) to 5 (max).')
    const token = typeof input.token === 'string' ? input.token.trim() : ''
    const tags = typeof input.tags === 'string' ? input.tags.trim().slice(0, 100) : ''
    return { url: url.toString(), secret: token || null, options: { priority, tags } }
  },
  view: (ep) => {
    const o = ep.options as NtfyOptions
    return { hasToken: !!ep.secret, priority: o.priority ?? 3, tags: o.tags ?? '' }
  },
  request(_deps, ep, alert) {
    const req = ntfyRequest(alert, ep.options as NtfyOptions, ep.secret)
    return { method: 'POST', url: ep.url, headers: req.headers, body: req.body }
  },
})
