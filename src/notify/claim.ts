// Claim in one tap: the three actions every alert carries (match card, web push, email, external channels) and the
// URL of the fastest way to reach the seller for the post's source. Pure: the links that record the first open or
// claim (src/notify/alert-links.ts) wrap these targets.
//
// The claim target, by source kind (docs/notifications.md "Claiming"):
//   reddit — a message to the author, prefilled with the user's claim template:
//            https://www.reddit.com/message/compose/?to=<author>&subject=<…>&message=<…>. Since Reddit replaced private
//            messages with Reddit Chat (2025) this is still the one URL that opens a prefilled message, and what it
//            sends lands in the seller's chat (Reddit kept the message endpoints, routed into chat). No author (deleted
//            account) → the post itself, whose comment box is the other way markets take claims.
//   feed   — the thread's reply page where the URL shows the forum software: XenForo /threads/<slug>.<id>/reply,
//            phpBB posting.php?mode=reply&t=<id> (with f= when the topic URL has it), vBulletin 3/4
//            newreply.php?do=newreply&t=<id>; Discourse has no reply page, so a private message to the author
//            prefilled like Reddit's (/new-message?username=…&title=…&body=…). Anything else: the thread URL.
//   push   — the post's URL: a pushed post comes from a site Dibs knows nothing about.
/** sources.kind (src/sources/store.ts SOURCE_KINDS), written out so this file stays a pure leaf the UI and matches/ can import. */
export type SourceKind = 'reddit' | 'feed' | 'push'

/** The template a user gets until they write their own (Notification Settings → Claim message). */
export const DEFAULT_CLAIM_TEMPLATE = 'Hi {author}, I\'d like to claim your "{title}" ({price}). Is it still available? {link}'
export const MAX_CLAIM_TEMPLATE = 1000
export const CLAIM_PLACEHOLDERS = ['{title}', '{price}', '{link}', '{author}'] as const

/** What the actions need of a post. `kind` null: a post stored before sources were data (read from its URL). */
export type ClaimPost = { title: string; url: string; author: string; price: number | null; kind: SourceKind | null }

/** '$450' (cents when there are any); '' without a price. */
export function priceText(price: number | null): string {
  if (price === null || !Number.isFinite(price)) return ''
  return Number.isInteger(price) ? `$${price}` : `$${price.toFixed(2)}`
}

/** The user's template with the post's values. Without a price, `{price}` is left out with the brackets around it. */
export function fillTemplate(template: string, post: Pick<ClaimPost, 'title' | 'url' | 'author' | 'price'>): string {
  const price = priceText(post.price)
  const filled = template.replace(/\{(title|price|link|author)\}/g, (_, k: string) =>
    k === 'title' ? post.title : k === 'price' ? price : k === 'link' ? post.url : post.author || 'there',
  )
  return price ? filled : filled.replace(/ ?\(\s*\)/g, '').replace(/ {2,}/g, ' ')
}

/** The subject of a claim message: the post title, cut to Reddit's 100 characters. */
export function claimSubject(title: string): string {
  const s = `Re: ${title}`
  return s.length > 100 ? `${s.slice(0, 99)}…` : s
}

const REDDIT_HOST = /(^|\.)reddit\.com$/i

/** The kind a post's URL says when the post has no source row. */
function kindOf(post: ClaimPost, url: URL | null): SourceKind {
  if (post.kind !== null) return post.kind
  return url && REDDIT_HOST.test(url.hostname) ? 'reddit' : 'feed'
}

function parse(u: string): URL | null {
  try {
    const url = new URL(u)
    return url.protocol === 'https:' || url.protocol === 'http:' ? url : null
  } catch {
    return null
  }
}

/** The forum's reply page (or prefilled message) for a thread URL, null when the URL shows no known software. */
export function forumReplyUrl(thread: URL, post: Pick<ClaimPost, 'title' | 'url' | 'author' | 'price'>, message: string): string | null {
  const origin = thread.origin
  // XenForo 2: /threads/<slug>.<id>/ (page-2, post-456 and #anchors after it are dropped); the board may sit under a path
  const xf = /^(.*\/threads\/(?:[^/]*\.)?\d+)(?:\/|$)/.exec(thread.pathname)
  if (xf) return `${origin}${xf[1]}/reply`
  // phpBB: viewtopic.php?t=<id> (f= kept when present: phpBB 3.0 needs it)
  const php = /^(.*\/)viewtopic\.php$/.exec(thread.pathname)
  const topic = thread.searchParams.get('t')
  if (php && topic && /^\d+$/.test(topic)) {
    const f = thread.searchParams.get('f')
    return `${origin}${php[1]}posting.php?mode=reply${f && /^\d+$/.test(f) ? `&f=${f}` : ''}&t=${topic}`
  }
  // vBulletin 3/4: showthread.php?t=<id> or showthread.php?<id>-<slug>
  const vb = /^(.*\/)showthread\.php$/.exec(thread.pathname)
  if (vb) {
    const id = thread.searchParams.get('t') ?? /^\??(\d+)/.exec(thread.search)?.[1] ?? null
    if (id && /^\d+$/.test(id)) return `${origin}${vb[1]}newreply.php?do=newreply&t=${id}`
  }
  // Discourse: /t/<slug>/<id> — no reply page; a private message to the author, prefilled
  const dc = /^(.*)\/t\/[^/]+\/\d+(?:\/\d+)?\/?$/.exec(thread.pathname)
  if (dc && post.author) {
    const q = new URLSearchParams({ username: post.author, title: claimSubject(post.title), body: message })
    return `${origin}${dc[1]}/new-message?${q}`
  }
  return null
}

/** The URL of the fastest way to reach the seller (see the header). */
export function claimUrl(post: ClaimPost, template: string): string {
  const url = parse(post.url)
  const message = fillTemplate(template, post)
  switch (kindOf(post, url)) {
    case 'reddit': {
      if (!post.author || post.author === '[deleted]') return post.url
      const q = new URLSearchParams({ to: post.author, subject: claimSubject(post.title), message })
      return `https://www.reddit.com/message/compose/?${q}`
    }
    case 'feed':
      return (url && forumReplyUrl(url, post, message)) ?? post.url
    case 'push':
      return post.url
  }
}

export type AlertActionName = 'claim' | 'open' | 'read'
/** The three actions of an alert: where 'Claim' and 'Open' go (the post, or the recording links wrapping it), and the 'Mark read' link. */
export type AlertActions = { claim: string; open: string; markRead: string }

/** The labels every channel shows, in this order. */
export const ACTION_LABELS: Record<AlertActionName, string> = { claim: 'Claim', open: 'Open', read: 'Mark read' }

/**
 * The actions of one alert. `link(action, target)` wraps a target in the recording link of the channel
 * (alert-links.ts); without it the targets themselves (and no mark-read link) are answered.
 */
export function alertActions(
  post: ClaimPost,
  template: string | null,
  link?: (action: AlertActionName, target: string | null) => string,
): AlertActions & { claimTarget: string } {
  const claimTarget = claimUrl(post, template ?? DEFAULT_CLAIM_TEMPLATE)
  if (!link) return { claim: claimTarget, open: post.url, markRead: '', claimTarget }
  return { claim: link('claim', claimTarget), open: link('open', post.url), markRead: link('read', null), claimTarget }
}
