// The explainer's reasons that live outside the matcher (issue 16 item 4). Pure. The matcher's own
// reasons come from src/matching/explain.ts (explainTerm: the same checks the term index runs); this
// file adds, per term, what the match runner (src/matches/runner.ts, its rules 1–6) and the user's
// matching defaults (src/matches/defaults.ts) decide around it, and why a post has no category.
import type { Category } from '../access/categories'
import { titleCodes } from '../forums/classify'
import { sidesTag, titleSides } from '../forums/sides'

export type TermFacts = {
  id: number
  term: string
  category: Category
  createdAt: number
  pausedAt: number | null
  /** explainTerm's verdict and reason sentences; null when the saved term no longer parses */
  explained: { matched: boolean; reasons: string[] } | null
}
export type PostFacts = { createdAt: number; category: Category | null }
export type UserFacts = {
  /** the user's plan covers the post's forum now (canUseCategory) */
  planCovers: boolean
  /** which default leaves the post out (defaultsVerdict) */
  defaults: { kind: 'sold'; state: 'sold' | 'pending' } | { kind: 'word'; word: string } | null
}

/** alerts: the term would have alerted for this post; matched: the matcher alone says yes. */
export type TermVerdict = { id: number; term: string; matched: boolean; alerts: boolean; reasons: string[]; blockers: string[] }

export const REASON_TEXTS = {
  paused: 'this term is paused',
  plan: 'your plan does not include this forum',
  createdBefore: 'the post was created before you added this term',
  sold: (state: 'sold' | 'pending') => `skipped: the post is marked ${state.toUpperCase()} (your default 'Skip posts marked SOLD or PENDING')`,
  word: (w: string) => `skipped: contains '${w}' (your always-excluded words)`,
  unparsable: 'this term can no longer be read (saved by an older version): edit it to match again',
  blockedSeller: (name: string, reason: string) => `u/${name} is on this installation's list of sellers Dibs never alerts on${reason ? ` (${reason})` : ''}`,
} as const

/** One term against the post: the matcher's reasons, then what stops an alert outside it. */
export function termVerdict(t: TermFacts, post: PostFacts, user: UserFacts): TermVerdict {
  const blockers: string[] = []
  if (t.pausedAt !== null) blockers.push(REASON_TEXTS.paused)
  if (!user.planCovers) blockers.push(REASON_TEXTS.plan)
  if (user.defaults?.kind === 'sold') blockers.push(REASON_TEXTS.sold(user.defaults.state))
  if (user.defaults?.kind === 'word') blockers.push(REASON_TEXTS.word(user.defaults.word))
  if (post.createdAt < t.createdAt) blockers.push(REASON_TEXTS.createdBefore)
  const matched = t.explained?.matched ?? false
  const reasons = t.explained ? t.explained.reasons : [REASON_TEXTS.unparsable]
  return { id: t.id, term: t.term, matched, alerts: matched && blockers.length === 0, reasons, blockers }
}

/** '3 terms in WTB are not checked against a WTS post' — one line per other category. */
export function otherCategoryLines(counts: Partial<Record<Category, number>>, postCategory: Category | null, label: (c: Category) => string): string[] {
  const out: string[] = []
  for (const [c, n] of Object.entries(counts) as [Category, number][]) {
    if (c === postCategory || !n) continue
    const against = postCategory === null ? 'an unclassified post' : `a ${label(postCategory)} post`
    out.push(`${n} term${n === 1 ? '' : 's'} in ${label(c)} ${n === 1 ? 'is' : 'are'} not checked against ${against}`)
  }
  return out
}

/** Why an accessories-forum post has no category (classify.ts rules 1–5), in words. */
export function unclassifiedReason(title: string, flair: string | null): string {
  const codes = titleCodes(title)
  if (codes.length > 0 && codes.every((c) => c === 'wtt')) return 'its title is tagged [WTT] only: a trade, neither WTS nor WTB'
  const sides = titleSides(title)
  if (sides !== null) {
    if (sidesTag(title) === 'wtt') return 'goods on both [H]/[W] sides: a trade, neither WTS nor WTB'
    return `its [H]/[W] sides do not say who pays${flair ? `, and the flair '${flair}' says neither WTS nor WTB` : ' and it has no flair'}`
  }
  if (flair) return `no [WTS]/[WTB] tag, no [H]/[W] sides, and the flair '${flair}' says neither WTS nor WTB`
  return 'no [WTS]/[WTB] tag, no [H]/[W] sides and no flair'
}
