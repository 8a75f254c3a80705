// Seller trust, as alerts show it: the author's confirmed trades (their flair, where the forum counts trades) and,
// with Reddit OAuth, the account's age and karma (one cached /user/<name>/about look-up per author: authors.ts).
// Pure: callers pass what they read.
import type { SellerTrust } from '../contract/events'
import { readTrades } from '../matching/trades'

export type { SellerTrust }

const DAY = 86_400_000

/** Whole days from the account's creation to the post (0 for an account made that day; never negative). */
export function accountAgeDays(accountCreatedAt: number | null | undefined, postCreatedAt: number | null | undefined): number | null {
  if (accountCreatedAt === null || accountCreatedAt === undefined || postCreatedAt === null || postCreatedAt === undefined) return null
  return Math.max(0, Math.floor((postCreatedAt - accountCreatedAt) / DAY))
}

export function sellerTrust(
  authorFlair: string | null | undefined,
  about: { accountCreatedAt: number | null; karma: number | null } | null,
  postCreatedAt: number | null,
): SellerTrust {
  return {
    trades: readTrades(authorFlair),
    ageDays: about ? accountAgeDays(about.accountCreatedAt, postCreatedAt) : null,
    karma: about?.karma ?? null,
  }
}

/** "3 y", "5 mo", "12 d". */
export function ageText(days: number): string {
  if (days >= 365) return `${Math.floor(days / 365)} y`
  if (days >= 30) return `${Math.floor(days / 30)} mo`
  return `${days} d`
}

/** "1.2k" from 1234, "12k" from 12 345; plain below 1000. */
export function karmaText(karma: number): string {
  if (Math.abs(karma) < 1000) return String(karma)
  const k = karma / 1000
  return `${Math.abs(k) < 10 ? k.toFixed(1).replace(/\.0$/, '') : Math.round(k)}k`
}

/** The one line alerts show: "12 trades · account 3 y · 1.2k karma"; '' when nothing is known. */
export function sellerText(t: SellerTrust | null | undefined): string {
  if (!t) return ''
  const parts: string[] = []
  if (t.trades !== null) parts.push(`${t.trades} ${t.trades === 1 ? 'trade' : 'trades'}`)
  if (t.ageDays !== null) parts.push(`account ${ageText(t.ageDays)}`)
  if (t.karma !== null) parts.push(`${karmaText(t.karma)} karma`)
  return parts.join(' · ')
}
