// Alert and account emails: HTML + plain text, branded with APP_NAME. Pure functions of their
// inputs so tests can read them without a server. Every alert email carries the unsubscribe link
// in its body and in the List-Unsubscribe headers (RFC 2369 + RFC 8058 one-click).
import type { Config } from '../config'
import type { Category } from '../access/categories'
import type { MatchItem } from '../contract/events'
import type { MailMessage } from '../outbox/mailer'

/** The fields of a match the notifier uses: a MatchItem (digests build them from stored rows). */
export type AlertMatch = Pick<MatchItem, 'id' | 'title' | 'url' | 'category' | 'matchedTerms'> &
  Partial<Pick<MatchItem, 'linkUrl' | 'author' | 'postCreatedAt'>>

type Brand = Pick<Config, 'appName' | 'appUrl' | 'productName' | 'productSlug'>

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!)
}

export function categoryLabel(brand: Brand, category: Category): string {
  return category === 'gd' ? 'Gundeals' : `${brand.productName} ${category.toUpperCase()}`
}

/** The dashboard page listing a match (a push click opens it). */
export function matchPageUrl(brand: Brand, category: Category, matchId?: number): string {
  const path = category === 'gd' ? '/dashboard/gundeals' : `/dashboard/${brand.productSlug}/${category}`
  return `${brand.appUrl}${path}${matchId === undefined ? '' : `?match=${matchId}`}`
}

export function termText(match: Pick<AlertMatch, 'matchedTerms'>): string {
  return match.matchedTerms.length ? match.matchedTerms.join(', ') : 'Term'
}

export function unsubscribeHeaders(unsubscribeUrl: string): Record<string, string> {
  return { 'List-Unsubscribe': `<${unsubscribeUrl}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' }
}

function layout(brand: Brand, heading: string, inner: string, footer: string): string {
  return `<!doctype html><html><body style="font-family:system-ui,-apple-system,Segoe UI,sans-serif;color:#111;max-width:600px;margin:0 auto;padding:24px">
<p style="margin:0 0 8px;font-weight:bold;color:#b45309">${escapeHtml(brand.appName)}</p>
<h1 style="font-size:20px;margin:0 0 16px">${escapeHtml(heading)}</h1>${inner}
<hr style="border:none;border-top:1px solid #ddd;margin:24px 0 12px"><p style="font-size:12px;color:#666">${footer}</p></body></html>`
}

function alertFooter(brand: Brand, unsubscribeUrl: string): { html: string; text: string } {
  const settings = `${brand.appUrl}/settings/account#notification-settings`
  return {
    html: `You get this email because you saved search terms on ${escapeHtml(brand.appName)}. <a href="${escapeHtml(unsubscribeUrl)}">Unsubscribe from alert emails</a> · <a href="${escapeHtml(settings)}">Notification settings</a>`,
    text: `You get this email because you saved search terms on ${brand.appName}.\nUnsubscribe from alert emails: ${unsubscribeUrl}\nNotification settings: ${settings}`,
  }
}

function matchBlockHtml(brand: Brand, m: AlertMatch): string {
  const by = m.author ? ` · u/${escapeHtml(m.author)}` : ''
  return `<li style="margin:0 0 12px"><a href="${escapeHtml(m.url)}" style="font-weight:bold;color:#1d4ed8">${escapeHtml(m.title)}</a><br>
<span style="font-size:13px;color:#444">Matched term: <b>${escapeHtml(termText(m))}</b>${by}</span></li>`
}

/** One email per match (frequency `instant`). */
export function matchEmail(brand: Brand, to: string, m: AlertMatch, unsubscribeUrl: string): MailMessage {
  const label = categoryLabel(brand, m.category)
  const footer = alertFooter(brand, unsubscribeUrl)
  const inner = `<ul style="padding-left:18px">${matchBlockHtml(brand, m)}</ul>
<p><a href="${escapeHtml(matchPageUrl(brand, m.category, m.id))}">See your ${escapeHtml(label)} matches</a></p>`
  return {
    to,
    subject: `[${brand.appName}] ${label} match: ${m.title}`.slice(0, 250),
    text: `New ${label} match for "${termText(m)}":\n\n${m.title}\n${m.url}\n${m.author ? `u/${m.author}\n` : ''}\nMatched term: ${termText(m)}\nYour matches: ${matchPageUrl(brand, m.category, m.id)}\n\n--\n${footer.text}\n`,
    html: layout(brand, `New ${label} match`, inner, footer.html),
    headers: unsubscribeHeaders(unsubscribeUrl),
  }
}

const ORDER: Category[] = ['wts', 'wtb', 'gd']

/** A digest (frequency `batched`): every match since the last digest, grouped by category. */
export function digestEmail(brand: Brand, to: string, list: AlertMatch[], unsubscribeUrl: string): MailMessage {
  const footer = alertFooter(brand, unsubscribeUrl)
  const groups = ORDER.map((c) => ({ c, items: list.filter((m) => m.category === c) })).filter((g) => g.items.length)
  const n = list.length
  const html = groups
    .map(
      ({ c, items }) =>
        `<h2 style="font-size:16px;margin:20px 0 8px">${escapeHtml(categoryLabel(brand, c))} (${items.length})</h2><ul style="padding-left:18px">${items.map((m) => matchBlockHtml(brand, m)).join('')}</ul>`,
    )
    .join('')
  const text = groups
    .map(
      ({ c, items }) =>
        `== ${categoryLabel(brand, c)} (${items.length}) ==\n\n${items.map((m) => `${m.title}\n${m.url}\nMatched term: ${termText(m)}\n`).join('\n')}`,
    )
    .join('\n')
  const heading = `${n} new ${n === 1 ? 'match' : 'matches'}`
  return {
    to,
    subject: `[${brand.appName}] ${heading} in your digest`,
    text: `${heading} since your last digest:\n\n${text}\n--\n${footer.text}\n`,
    html: layout(brand, heading, html, footer.html),
    headers: unsubscribeHeaders(unsubscribeUrl),
  }
}

function accountEmail(brand: Brand, to: string, subject: string, heading: string, lines: string[], cta: { label: string; href: string }): MailMessage {
  const inner = `${lines.map((l) => `<p>${escapeHtml(l)}</p>`).join('')}<p><a href="${escapeHtml(cta.href)}" style="background:#f59e0b;color:#111;padding:10px 18px;border-radius:6px;text-decoration:none;font-weight:bold">${escapeHtml(cta.label)}</a></p>`
  return {
    to,
    subject,
    text: `${lines.join('\n\n')}\n\n${cta.label}: ${cta.href}\n`,
    html: layout(brand, heading, inner, escapeHtml(brand.appName)),
  }
}

export function trialEndingEmail(brand: Brand, to: string, endsAt: Date, now: Date = new Date()): MailMessage {
  const days = Math.max(1, Math.ceil((endsAt.getTime() - now.getTime()) / 86_400_000))
  return accountEmail(
    brand,
    to,
    `Your ${brand.appName} trial is ending soon`,
    'Your Trial is Ending Soon',
    [
      `Your free trial ends on ${endsAt.toUTCString()} (in about ${days} day${days === 1 ? '' : 's'}).`,
      'Choose a plan to keep your search terms alerting without a gap.',
    ],
    { label: 'Choose a plan', href: `${brand.appUrl}/dashboard/subscription` },
  )
}

export function trialEndedEmail(brand: Brand, to: string): MailMessage {
  return accountEmail(
    brand,
    to,
    `Your ${brand.appName} free trial has ended`,
    'Your Free Trial Has Ended',
    [
      'Your free trial has ended, so alerts for your search terms are paused.',
      'Your terms are kept: subscribe to a plan and they start alerting again right away.',
    ],
    { label: 'Reactivate', href: `${brand.appUrl}/dashboard/subscription` },
  )
}

export function contactEmail(brand: Brand, to: string, from: { email: string; userId: number | null }, subject: string, message: string): MailMessage {
  const who = `${from.email}${from.userId === null ? '' : ` (user #${from.userId})`}`
  return {
    to,
    subject: `[${brand.appName} contact] ${subject}`.slice(0, 250),
    text: `From: ${who}\nSubject: ${subject}\n\n${message}\n`,
    html: layout(
      brand,
      `Contact form: ${subject}`,
      `<p>From: ${escapeHtml(who)}</p><pre style="white-space:pre-wrap;font-family:inherit">${escapeHtml(message)}</pre>`,
      escapeHtml(brand.appName),
    ),
    headers: { 'Reply-To': from.email },
  }
}
