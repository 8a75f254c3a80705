// Every explainer reason outside the matcher (src/explain/verdicts.ts), the post reference parser
// (post-ref.ts) and the matcher's own reasons as the explainer passes them on (explainTerm).
import { describe, expect, test } from 'bun:test'
import { REF_MESSAGE, parsePostRef } from '../../../src/explain/post-ref'
import { otherCategoryLines, termVerdict, unclassifiedReason, type TermFacts, type UserFacts } from '../../../src/explain/verdicts'
import { compileTerm, preparePost } from '../../../src/matching/compile'
import { explainTerm } from '../../../src/matching/explain'
import { parseTerm } from '../../../src/matching/parse'

const T0 = 1_763_640_000_000
const matched = { matched: true, reasons: ["matched 'rmr'"] }
const term = (over: Partial<TermFacts> = {}): TermFacts => ({ id: 1, term: 'rmr', category: 'wts', createdAt: T0, pausedAt: null, explained: matched, ...over })
const user = (over: Partial<UserFacts> = {}): UserFacts => ({ planCovers: true, defaults: null, ...over })
const post = { createdAt: T0 + 60_000, category: 'wts' as const }

describe('reasons outside the matcher', () => {
  const cases: [string, TermFacts, UserFacts, { createdAt: number; category: 'wts' }, boolean, string[]][] = [
    ['matched and alerts', term(), user(), post, true, []],
    ['created before the term', term(), user(), { ...post, createdAt: T0 - 1 }, false, ['the post was created before you added this term']],
    ['paused', term({ pausedAt: T0 + 1 }), user(), post, false, ['this term is paused']],
    [
      'SOLD default',
      term(),
      user({ defaults: { kind: 'sold', state: 'sold' } }),
      post,
      false,
      ["skipped: the post is marked SOLD (your default 'Skip posts marked SOLD or PENDING')"],
    ],
    [
      'PENDING default',
      term(),
      user({ defaults: { kind: 'sold', state: 'pending' } }),
      post,
      false,
      ["skipped: the post is marked PENDING (your default 'Skip posts marked SOLD or PENDING')"],
    ],
    [
      'always-excluded word',
      term(),
      user({ defaults: { kind: 'word', word: 'airsoft' } }),
      post,
      false,
      ["skipped: contains 'airsoft' (your always-excluded words)"],
    ],
    ['plan without the forum', term(), user({ planCovers: false }), post, false, ['your plan does not include this forum']],
    [
      'several at once',
      term({ pausedAt: T0 }),
      user({ planCovers: false }),
      { ...post, createdAt: T0 - 5 },
      false,
      ['this term is paused', 'your plan does not include this forum', 'the post was created before you added this term'],
    ],
  ]
  for (const [name, t, u, p, alerts, blockers] of cases)
    test(name, () => {
      const v = termVerdict(t, p, u)
      expect(v.alerts).toBe(alerts)
      expect(v.matched).toBe(true)
      expect(v.blockers).toEqual(blockers)
    })

  test('a term the matcher rejects never alerts; its reasons are the matcher’s', () => {
    const v = termVerdict(term({ explained: { matched: false, reasons: ["needs the word 'rmr' — not in the title or body"] } }), post, user())
    expect(v).toMatchObject({ matched: false, alerts: false, reasons: ["needs the word 'rmr' — not in the title or body"], blockers: [] })
  })
  test('a term that no longer parses says so', () => {
    expect(termVerdict(term({ explained: null }), post, user()).reasons[0]).toContain('can no longer be read')
  })
})

describe('other categories and unclassified posts', () => {
  const label = (c: string) => (c === 'gd' ? 'Gundeals' : `GAFS ${c.toUpperCase()}`)
  test('terms of other categories are counted per category', () => {
    expect(otherCategoryLines({ wts: 2, wtb: 3, gd: 1 }, 'wts', label)).toEqual([
      '3 terms in GAFS WTB are not checked against a GAFS WTS post',
      '1 term in Gundeals is not checked against a GAFS WTS post',
    ])
    expect(otherCategoryLines({ wts: 1 }, null, label)).toEqual(['1 term in GAFS WTS is not checked against an unclassified post'])
  })
  const cases: [string, string | null, string][] = [
    ['Aimpoint T2 mount', null, 'no [WTS]/[WTB] tag, no [H]/[W] sides and no flair'],
    ['Aimpoint T2 mount', 'Optics', "no [WTS]/[WTB] tag, no [H]/[W] sides, and the flair 'Optics' says neither WTS nor WTB"],
    ['[WTT] Aimpoint T2', null, 'its title is tagged [WTT] only: a trade, neither WTS nor WTB'],
    ['[H] Aimpoint T2 [W] Trijicon RMR', null, 'goods on both [H]/[W] sides: a trade, neither WTS nor WTB'],
  ]
  for (const [title, flair, reason] of cases) test(`unclassified: ${title} / ${flair}`, () => expect(unclassifiedReason(title, flair)).toBe(reason))
})

describe('post links and ids', () => {
  const ok: [string, string, string | null][] = [
    ['https://www.reddit.com/r/GunAccessoriesForSale/comments/1abc2d/wts_rmr/', '1abc2d', 'GunAccessoriesForSale'],
    ['https://old.reddit.com/r/gundeals/comments/xyz789/title/?utm_source=share&utm_medium=web', 'xyz789', 'gundeals'],
    ['new.reddit.com/r/gundeals/comments/XYZ789', 'xyz789', 'gundeals'],
    ['http://np.reddit.com/r/a_b/comments/q1w2e3/t/c4/', 'q1w2e3', 'a_b'],
    ['https://reddit.com/comments/q1w2e3', 'q1w2e3', null],
    ['https://redd.it/q1w2e3', 'q1w2e3', null],
    ['/r/gundeals/comments/q1w2e3/title/', 'q1w2e3', 'gundeals'],
    ['t3_q1w2e3', 'q1w2e3', null],
    ['  Q1W2E3 ', 'q1w2e3', null],
  ]
  for (const [input, id, sub] of ok) test(input, () => expect(parsePostRef(input)).toEqual({ ok: true, redditId: id, subreddit: sub }))
  const bad = [
    '',
    'https://example.com/r/x/comments/abc123/',
    'https://www.reddit.com/r/gundeals/',
    'not a link',
    't1_abc',
    'https://redd.it/',
    'ftp://reddit.com/comments/abc',
  ]
  for (const input of bad) test(`refused: ${JSON.stringify(input)}`, () => expect(parsePostRef(input)).toEqual({ ok: false, error: REF_MESSAGE }))
})

describe('matcher reasons the explainer passes on (field filters, per-unit prices)', () => {
  const explain = (text: string, p: { title: string; content?: string; author?: string; flair?: string | null; authorFlair?: string | null }) => {
    const q = parseTerm(text)
    if (!q.ok) throw new Error(q.error)
    return explainTerm(compileTerm(q.query), preparePost({ content: '', author: 'seller', flair: null, authorFlair: null, ...p }), 'wts')
  }
  const cases: [string, string, Parameters<typeof explain>[1], RegExp][] = [
    ['missing word', 'rmr', { title: '[WTS] Aimpoint T2 $500' }, /needs the word 'rmr' — not in the title or body/],
    ['price', 'rmr <$500', { title: '[WTS] Trijicon RMR $520' }, /price \$520 is above <\$500/],
    ['excluded', 'rmr -cerakote', { title: '[WTS] RMR in FDE cerakote $40' }, /excluded by -cerakote/],
    ['author', 'rmr author:bob', { title: '[WTS] RMR $400', author: 'alice' }, /author is not 'bob'/],
    ['flair', 'rmr flair:optics', { title: '[WTS] RMR $400', flair: 'Parts' }, /flair has no 'optic/],
    ['trades', 'rmr trades>=10', { title: '[WTS] RMR $400', authorFlair: 'Trades: 3' }, /3 confirmed trades, fewer than trades>=10/],
    ['per unit', 'pmag <$10/ea', { title: '[WTS] PMAG 10 for $150' }, /price \$15\/ea is above <\$10\/ea/],
  ]
  for (const [name, text, p, re] of cases)
    test(name, () => {
      const e = explain(text, p)
      expect(e.matched).toBe(false)
      expect(e.reasons.join(' | ')).toMatch(re)
    })
})
