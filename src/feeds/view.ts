// What a feed of matches says, before it is written as Atom (./atom.ts) or JSON Feed (./json-feed.ts):
// the feed's stable id, title, links and time, and one entry per match with the post, the matched
// terms, the price and the source. Ids are opaque and stable: the same match keeps its entry id in
// every format and after the feed address is rotated (readers do not show it twice). Pure.
import { createHash } from 'node:crypto'
import type { Category } from '../access/categories'
import type { Config } from '../config'
import type { FeedMatch } from '../matches/feed'
import { categoryLabel, matchPageUrl } from '../notify/templates'

export type FeedFormat = 'atom' | 'json'
export const FEED_FILES: Record<FeedFormat, string> = { atom: 'matches.atom', json: 'matches.json' }

type Brand = Pick<Config, 'appName' | 'appUrl' | 'productName' | 'productSlug'>

export type FeedEntry = {
  id: string
  title: string
  url: string
  linkUrl: string | null
  author: string | null
  updated: Date
  published: Date | null
  category: Category
  categoryLabel: string
  terms: string[]
  price: number | null
  priceText: string | null
  source: string | null
  excerpt: string
  /** one line: the matched terms, price and source */
  about: string
}

export type FeedView = {
  id: string
  title: string
  description: string
  appName: string
  homeUrl: string
  /** this feed's own address in each format */
  urls: Record<FeedFormat, string>
  updated: Date
  entries: FeedEntry[]
}

/** A urn:uuid made from a name (the shape of an RFC 9562 version 8 UUID): stable, and tells nothing. */
export function nameUuid(name: string): string {
  const h = createHash('sha256').update(name).digest('hex')
  const variant = ((parseInt(h[16]!, 16) & 0x3) | 0x8).toString(16)
  return `urn:uuid:${h.slice(0, 8)}-${h.slice(8, 12)}-8${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`
}

export function priceText(price: number | null): string | null {
  if (price === null || !Number.isFinite(price)) return null
  return `$${price.toLocaleString('en-US', { minimumFractionDigits: Number.isInteger(price) ? 0 : 2, maximumFractionDigits: 2 })}`
}

/** The address of a feed: `${APP_URL}/feeds/<secret>/matches.atom[?category=wts]`. */
export function feedUrl(appUrl: string, secret: string, format: FeedFormat, category: Category | null): string {
  return `${appUrl}/feeds/${secret}/${FEED_FILES[format]}${category === null ? '' : `?category=${category}`}`
}

export function feedView(brand: Brand, opts: { userId: number; secret: string; category: Category | null; matches: FeedMatch[]; emptySince: Date }): FeedView {
  const { category, matches } = opts
  const label = category === null ? null : categoryLabel(brand, category)
  const entries = matches.map((m): FeedEntry => {
    const price = priceText(m.price)
    const terms = m.matchedTerms
    return {
      id: nameUuid(`${brand.appUrl} match ${m.id}`),
      title: m.title,
      url: m.url,
      linkUrl: m.linkUrl,
      author: m.author.trim() ? m.author.trim() : null,
      updated: m.matchedAt,
      published: m.postedAt,
      category: m.category,
      categoryLabel: categoryLabel(brand, m.category),
      terms,
      price: m.price,
      priceText: price,
      source: m.sourceName,
      excerpt: m.excerpt,
      about: [
        `Matched ${terms.length === 1 ? 'term' : 'terms'}: ${terms.join(', ') || '—'}`,
        price && `Price: ${price}`,
        m.sourceName && `Source: ${m.sourceName}`,
      ]
        .filter(Boolean)
        .join(' · '),
    }
  })
  const newest = entries.reduce((t, e) => Math.max(t, e.updated.getTime()), 0)
  return {
    id: nameUuid(`${brand.appUrl} feed of user ${opts.userId} ${category ?? 'all'}`),
    title: `${brand.appName}: ${label === null ? 'your matches' : `your ${label} matches`}`,
    description: `Posts that matched your saved search terms on ${brand.appName}${label === null ? '' : ` (${label})`}, newest first.`,
    appName: brand.appName,
    homeUrl: category === null ? `${brand.appUrl}/dashboard` : matchPageUrl(brand, category),
    urls: { atom: feedUrl(brand.appUrl, opts.secret, 'atom', category), json: feedUrl(brand.appUrl, opts.secret, 'json', category) },
    updated: new Date(newest > 0 ? newest : opts.emptySince.getTime()),
    entries,
  }
}
