// A feed of matches as JSON Feed 1.1 (jsonfeed.org/version/1.1): version, title and items (each with
// an id and content_text) as required; the matched terms, category, price and source are also in the
// `_dibs` extension object of each item (the spec's way for extensions: a key starting with "_"), so
// a script reads them without parsing text. Pure.
import type { FeedView } from './view'

export const JSON_FEED_VERSION = 'https://jsonfeed.org/version/1.1'

export function jsonFeed(v: FeedView) {
  return {
    version: JSON_FEED_VERSION,
    title: v.title,
    home_page_url: v.homeUrl,
    feed_url: v.urls.json,
    description: v.description,
    authors: [{ name: v.appName }],
    items: v.entries.map((e) => ({
      id: e.id,
      url: e.url,
      ...(e.linkUrl ? { external_url: e.linkUrl } : {}),
      title: e.title,
      content_text: e.excerpt ? `${e.about}\n\n${e.excerpt}` : e.about,
      summary: e.about,
      date_published: (e.published ?? e.updated).toISOString(),
      date_modified: e.updated.toISOString(),
      ...(e.author ? { authors: [{ name: e.author }] } : {}),
      tags: [e.categoryLabel, ...e.terms],
      _dibs: { category: e.category, matched_terms: e.terms, price: e.price, source: e.source, matched_at: e.updated.toISOString() },
    })),
  }
}
