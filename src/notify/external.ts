// The alert external channels carry (src/outbox/channels/types.ts ExternalAlert): the match and
// its post, with the listing's price — the one stored with the post (its title's item price, or a price
// edit in the body), else the title's (`titlePrice`, as posts.price reads it). Also the sample 'Send test' sends.
import type { Config } from '../config'
import type { MatchItem } from '../contract/events'
import type { ExternalAlert } from '../outbox/channels/types'
import { titlePrice } from '../forums/reposts'
import { sellerText } from '../forums/seller'
import { categoryLabel, matchPageUrl } from './templates'

type Brand = Pick<Config, 'appName' | 'appUrl' | 'productName' | 'productSlug'>

/**
 * An alert's Claim link when the dispatcher gave none (a test send, a summary): the post itself. Live alerts carry
 * the signed links of src/notify/alert-links.ts, which record the first open or claim and lead to the per-source
 * claim target (src/notify/claim.ts: a prefilled message to the author, a forum's reply page).
 */
export function claimUrl(m: Pick<MatchItem, 'url'>): string {
  return m.url
}

/** The buttons of an alert: Claim and Open (the post). */
export function alertButtons(m: Pick<MatchItem, 'url'>): { claim: string; open: string } {
  return { claim: claimUrl(m), open: m.url }
}

export function externalAlert(
  brand: Brand,
  m: MatchItem,
  type: ExternalAlert['type'] = 'match',
  storedPrice: number | null = null,
  actions?: ExternalAlert['actions'],
): ExternalAlert {
  return {
    seller: sellerText(m.seller),
    type,
    match: {
      id: m.id,
      category: m.category,
      categoryLabel: categoryLabel(brand, m.category),
      matchedTerms: m.matchedTerms,
      matchedAt: m.createdAt,
      url: matchPageUrl(brand, m.category, m.id),
      priceDrop: m.priceDrop ?? null,
    },
    post: {
      id: m.postId,
      title: m.title,
      url: m.url,
      linkUrl: m.linkUrl,
      author: m.author,
      price: storedPrice ?? titlePrice(m.title),
      createdAt: m.postCreatedAt,
    },
    // the links that record time to claim (src/notify/alert-links.ts) when the dispatcher made them; else the post
    actions: actions ? { claim: actions.claim, open: actions.open, markRead: actions.markRead } : alertButtons(m),
  }
}

/** One message standing for several alerts of a channel: the end of quiet hours, or the channel's cap per minute. */
export function summaryAlert(brand: Brand, reason: 'quiet' | 'rate', alerts: ExternalAlert[], now: Date): ExternalAlert {
  const first = alerts[0]
  const dashboard = `${brand.appUrl}/dashboard`
  const n = alerts.length
  return {
    type: 'summary',
    match: {
      id: 0,
      category: first?.match.category ?? '',
      categoryLabel: first?.match.categoryLabel ?? '',
      matchedTerms: [...new Set(alerts.flatMap((a) => a.match.matchedTerms))],
      matchedAt: now.toISOString(),
      url: dashboard,
      priceDrop: null,
    },
    post: {
      id: null,
      title:
        reason === 'quiet' ? `${n} new ${n === 1 ? 'match' : 'matches'} while you were away` : `${n} more ${n === 1 ? 'match' : 'matches'} in the last minute`,
      url: dashboard,
      linkUrl: null,
      author: '',
      price: null,
      createdAt: null,
    },
    summary: { reason, count: n, matches: alerts.map((a) => ({ id: a.match.id, title: a.post.title, url: a.post.url })) },
  }
}

/** A made-up match for 'Send test': clearly labelled, with a working link. */
export function testAlert(brand: Brand, now: Date): ExternalAlert {
  const at = now.toISOString()
  const sample: MatchItem = {
    id: 0,
    postId: null,
    title: `[WTS] ${brand.appName} test notification - $100`,
    url: brand.appUrl,
    linkUrl: null,
    author: '',
    createdAt: at,
    postCreatedAt: at,
    state: 'open',
    matchedTerms: ['test'],
    isNew: true,
    category: 'wts',
    source: 'live',
    archivedAt: null,
  }
  return externalAlert(brand, sample, 'test')
}
