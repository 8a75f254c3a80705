// A feed of matches as Atom 1.0 (RFC 4287). Every text is escaped for XML, and characters XML 1.0 does
// not allow (control characters, lone surrogates) are dropped, so a post with any title still gives a
// well-formed document. The feed has an author (the app), so entries without one stay valid. The
// entry's content is HTML (escaped once as HTML, once more as XML text): the matched terms, price and
// source, then the excerpt. Pure.
import type { FeedEntry, FeedView } from './view'

const NOT_XML = /[^\t\n\r\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu

/** Text safe in XML character data and attribute values. */
export function xmlText(s: string): string {
  return s.replace(NOT_XML, '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!)
}

const htmlText = (s: string) => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!)

const SCHEME = { category: 'urn:dibs:category', term: 'urn:dibs:term', source: 'urn:dibs:source' }

function entryHtml(e: FeedEntry): string {
  const link = e.linkUrl ? `<p><a href="${htmlText(e.linkUrl)}">${htmlText(e.linkUrl)}</a></p>` : ''
  const excerpt = e.excerpt ? `<p>${htmlText(e.excerpt)}</p>` : ''
  return `<p>${htmlText(e.about)}</p>${excerpt}${link}`
}

function entry(e: FeedEntry): string {
  const lines = [
    '  <entry>',
    `    <id>${e.id}</id>`,
    `    <title type="text">${xmlText(e.title)}</title>`,
    `    <link rel="alternate" type="text/html" href="${xmlText(e.url)}"/>`,
    e.linkUrl ? `    <link rel="related" href="${xmlText(e.linkUrl)}"/>` : null,
    `    <updated>${e.updated.toISOString()}</updated>`,
    e.published ? `    <published>${e.published.toISOString()}</published>` : null,
    e.author ? `    <author><name>${xmlText(e.author)}</name></author>` : null,
    `    <category scheme="${SCHEME.category}" term="${e.category}" label="${xmlText(e.categoryLabel)}"/>`,
    ...e.terms.map((t) => `    <category scheme="${SCHEME.term}" term="${xmlText(t)}" label="${xmlText(`Matched term: ${t}`)}"/>`),
    e.source ? `    <category scheme="${SCHEME.source}" term="${xmlText(e.source)}" label="${xmlText(`Source: ${e.source}`)}"/>` : null,
    `    <summary type="text">${xmlText(e.excerpt ? `${e.about}. ${e.excerpt}` : e.about)}</summary>`,
    `    <content type="html">${xmlText(entryHtml(e))}</content>`,
    '  </entry>',
  ]
  return lines.filter((l) => l !== null).join('\n')
}

export function atomFeed(v: FeedView): string {
  return [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<feed xmlns="http://www.w3.org/2005/Atom">',
    `  <id>${v.id}</id>`,
    `  <title type="text">${xmlText(v.title)}</title>`,
    `  <subtitle type="text">${xmlText(v.description)}</subtitle>`,
    `  <updated>${v.updated.toISOString()}</updated>`,
    `  <author><name>${xmlText(v.appName)}</name></author>`,
    `  <link rel="self" type="application/atom+xml" href="${xmlText(v.urls.atom)}"/>`,
    `  <link rel="alternate" type="text/html" href="${xmlText(v.homeUrl)}"/>`,
    `  <link rel="alternate" type="application/feed+json" href="${xmlText(v.urls.json)}"/>`,
    `  <generator>${xmlText(v.appName)}</generator>`,
    ...v.entries.map(entry),
    '</feed>',
    '',
  ].join('\n')
}
