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

export function externalAlert(
  brand: Brand,
  m: MatchItem,
  type: ExternalAlert['type'] = 'match',
  storedPrice: number | null = null,
  actions?: ExternalAlert['actions'],
): ExternalAlert {
  return {
    ...(actions ? { actions: { claim: actions.claim, open: actions.open, markRead: actions.markRead } } : {}),
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
