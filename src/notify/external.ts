// The alert external channels carry (src/outbox/channels/types.ts ExternalAlert): the match and
// its post, with the listing's price — the one stored with the post (its title's item price, or a price
// edit in the body), else the title's (`titlePrice`, as posts.price reads it). Also the sample 'Send test' sends.
import type { Config } from '../config'
import type { MatchItem } from '../contract/events'
import type { ExternalAlert } from '../outbox/channels/types'
import { titlePrice } from '../forums/reposts'
import { categoryLabel, matchPageUrl } from './templates'

type Brand = Pick<Config, 'appName' | 'appUrl' | 'productName' | 'productSlug'>

/**
 * THE place an alert's Claim link is computed for the external channels (Telegram's and Slack's
 * buttons, Pushover's url, ntfy's actions, the webhook's `actions`). Today: the post itself (its
 * reply box). The per-source claim links (a prefilled message to the author, a forum's reply page)
 * replace this body.
 */
export function claimUrl(m: Pick<MatchItem, 'url'>): string {
  return m.url
}

/** The buttons of an alert: Claim and Open (the post). */
export function alertButtons(m: Pick<MatchItem, 'url'>): { claim: string; open: string } {
  return { claim: claimUrl(m), open: m.url }
}

export function externalAlert(brand: Brand, m: MatchItem, type: ExternalAlert['type'] = 'match', storedPrice: number | null = null): ExternalAlert {
  return {
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
    actions: alertButtons(m),
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
