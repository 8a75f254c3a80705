// Alert and account emails: HTML + plain text, branded with APP_NAME, in the one shared layout
// (src/lib/email-layout.ts). Pure functions of their inputs so tests can read them without a
// server. Every alert email carries the unsubscribe link in its body and in the List-Unsubscribe
// headers (RFC 2369 + RFC 8058 one-click), and a List-Id (RFC 2919) so clients can file and
// filter the alerts as one list.
import type { Config } from '../config'
import type { Category } from '../access/categories'
import type { MatchItem } from '../contract/events'
import { priceDropText } from '../forums/price-history'
import { composeEmail, type Block } from '../lib/email-layout'
import type { MailMessage } from '../outbox/mailer'
import { sellerText } from '../forums/seller'
import { ACTION_LABELS, type AlertActions } from './claim'

/** The fields of a match the notifier uses: a MatchItem (digests build them from stored rows). */
export type AlertMatch = Pick<MatchItem, 'id' | 'title' | 'url' | 'category' | 'matchedTerms'> &
  Partial<Pick<MatchItem, 'linkUrl' | 'author' | 'postCreatedAt' | 'priceDrop' | 'seller' | 'price' | 'sourceKind'>>

type Brand = Pick<Config, 'appName' | 'appUrl' | 'productName' | 'productSlug'>

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

/** RFC 2919: `"Dibs alerts" <alerts.dibs.example.com>` (the APP_URL host); the phrase only when it is plain ASCII. */
export function listId(brand: Brand): string {
  const host = new URL(brand.appUrl).hostname.toLowerCase().replace(/[^a-z0-9.-]/g, '-')
  const phrase = `${brand.appName} alerts`.replace(/["\\]/g, '')
  return /^[\x20-\x7e]+$/.test(phrase) ? `"${phrase}" <alerts.${host}>` : `<alerts.${host}>`
}

/** The headers of every alert email: one-click unsubscribe (RFC 2369 + 8058) and the list's id. */
export function alertHeaders(brand: Brand, unsubscribeUrl: string): Record<string, string> {
  return { 'List-Unsubscribe': `<${unsubscribeUrl}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click', 'List-Id': listId(brand) }
}

function alertFooter(brand: Brand, unsubscribeUrl: string): Block[] {
  return [
    { text: `You get this email because you saved search terms on ${brand.appName}.` },
    {
      links: [
        { label: 'Unsubscribe from alert emails', href: unsubscribeUrl },
        { label: 'Notification settings', href: `${brand.appUrl}/settings/account#notification-settings` },
      ],
    },
  ]
}

function matchBlock(m: AlertMatch): Block {
  const drop = m.priceDrop ? `${priceDropText(m.priceDrop)} · ` : ''
  const seller = sellerText(m.seller)
  return {
    item: { label: m.title, href: m.url },
    detail: `${drop}Matched term: ${termText(m)}${m.author ? ` · u/${m.author}` : ''}${seller ? ` · ${seller}` : ''}`,
  }
}

/** The subject of an instant alert: the post title first (it is what the reader scans for); a price drop says so before it. */
function matchSubject(m: AlertMatch, label: string): string {
  const shown = m.title.length > 200 ? `${m.title.slice(0, 199)}…` : m.title
  return m.priceDrop ? `${priceDropText(m.priceDrop)} · ${shown}` : `${shown} · ${label} match`
}

/** One email per match (frequency `instant`): Claim first (the button), then Open and Mark read (src/notify/claim.ts). */
export function matchEmail(brand: Brand, to: string, m: AlertMatch, unsubscribeUrl: string, actions?: AlertActions): MailMessage {
  const label = categoryLabel(brand, m.category)
  const links: Block[] = actions
    ? [
        {
          links: [
            { label: ACTION_LABELS.open, href: actions.open },
            { label: ACTION_LABELS.read, href: actions.markRead },
            { label: `See your ${label} matches`, href: matchPageUrl(brand, m.category, m.id) },
          ],
        },
      ]
    : []
  return {
    ...composeEmail(to, matchSubject(m, label), {
      appName: brand.appName,
      heading: m.priceDrop ? priceDropText(m.priceDrop) : `New ${label} match`,
      blocks: [matchBlock(m), ...links],
      button: actions
        ? { label: ACTION_LABELS.claim, href: actions.claim }
        : { label: `See your ${label} matches`, href: matchPageUrl(brand, m.category, m.id) },
      footer: alertFooter(brand, unsubscribeUrl),
    }),
    headers: alertHeaders(brand, unsubscribeUrl),
  }
}

const ORDER: Category[] = ['wts', 'wtb', 'gd']

/** An email listing matches grouped by category: the digest and the quiet-hours summary. */
function listEmail(
  brand: Brand,
  to: string,
  list: AlertMatch[],
  unsubscribeUrl: string,
  words: (count: string) => { subject: string; heading: string },
): MailMessage {
  const groups = ORDER.map((c) => ({ c, items: list.filter((m) => m.category === c) })).filter((g) => g.items.length)
  const n = list.length
  const { subject, heading } = words(`${n} new ${n === 1 ? 'match' : 'matches'}`)
  return {
    ...composeEmail(to, subject, {
      appName: brand.appName,
      heading,
      blocks: groups.flatMap(({ c, items }) => [{ heading: `${categoryLabel(brand, c)} (${items.length})` }, ...items.map(matchBlock)]),
      button: { label: 'See your matches', href: `${brand.appUrl}/dashboard` },
      footer: alertFooter(brand, unsubscribeUrl),
    }),
    headers: alertHeaders(brand, unsubscribeUrl),
  }
}

/** A digest (frequency `batched`): every match since the last digest, grouped by category. */
export function digestEmail(brand: Brand, to: string, list: AlertMatch[], unsubscribeUrl: string): MailMessage {
  return listEmail(brand, to, list, unsubscribeUrl, (n) => ({ subject: `[${brand.appName}] ${n} in your digest`, heading: `${n} since your last digest` }))
}

/** The one email that ends quiet hours: the instant alerts held during them (src/notify/quiet-summary.ts). */
export function quietSummaryEmail(brand: Brand, to: string, list: AlertMatch[], unsubscribeUrl: string): MailMessage {
  return listEmail(brand, to, list, unsubscribeUrl, (n) => ({ subject: `[${brand.appName}] ${n} while you were away`, heading: `${n} while you were away` }))
}

export function trialEndingEmail(brand: Brand, to: string, endsAt: Date, now: Date = new Date()): MailMessage {
  const days = Math.max(1, Math.ceil((endsAt.getTime() - now.getTime()) / 86_400_000))
  return composeEmail(to, `Your ${brand.appName} trial is ending soon`, {
    appName: brand.appName,
    heading: 'Your Trial is Ending Soon',
    blocks: [
      `Your free trial ends on ${endsAt.toUTCString()} (in about ${days} day${days === 1 ? '' : 's'}).`,
      'Choose a plan to keep your search terms alerting without a gap.',
    ],
    button: { label: 'Choose a plan', href: `${brand.appUrl}/dashboard/subscription` },
  })
}

export function trialEndedEmail(brand: Brand, to: string): MailMessage {
  return composeEmail(to, `Your ${brand.appName} free trial has ended`, {
    appName: brand.appName,
    heading: 'Your Free Trial Has Ended',
    blocks: [
      'Your free trial has ended, so alerts for your search terms are paused.',
      'Your terms are kept: subscribe to a plan and they start alerting again right away.',
    ],
    button: { label: 'Reactivate', href: `${brand.appUrl}/dashboard/subscription` },
  })
}

export function contactEmail(brand: Brand, to: string, from: { email: string; userId: number | null }, subject: string, message: string): MailMessage {
  const who = `${from.email}${from.userId === null ? '' : ` (user #${from.userId})`}`
  return {
    ...composeEmail(to, `[${brand.appName} contact] ${subject}`.slice(0, 250), {
      appName: brand.appName,
      heading: `Contact form: ${subject}`,
      blocks: [`From: ${who}`, `Subject: ${subject}`, { pre: message }],
    }),
    headers: { 'Reply-To': from.email },
  }
}
