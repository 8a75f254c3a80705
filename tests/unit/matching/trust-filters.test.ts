// Seller trust filters: `age>=30d` and `karma>=100` beside `trades>=N` — parsed, compiled, checked and explained.
import { describe, expect, test } from 'bun:test'
import { compileTerm, preparePost } from '../../../src/matching/compile'
import { explainTerm } from '../../../src/matching/explain'
import { parseTerm } from '../../../src/matching/parse'
import { checkAlternative } from '../../../src/matching/compile'
import { sellerText } from '../../../src/forums/seller'
import { parseAbout } from '../../../src/forums/authors'

const post = (ageDays: number | null, karma: number | null) =>
  preparePost({ title: '[WTS] Trijicon RMR Type 2 - $400', author: 'seller_1', authorAgeDays: ageDays, authorKarma: karma })
const matches = (term: string, p: ReturnType<typeof post>) => {
  const parsed = parseTerm(term)
  if (!parsed.ok) throw new Error(parsed.error)
  return compileTerm(parsed.query).alternatives.some((a) => checkAlternative(a, p, 'wts') === null)
}

describe('age and karma bounds', () => {
  test('parsed in days (d, m = 30 d, y = 365 d) and whole karma; errors say how to write them', () => {
    const q = parseTerm('rmr age>=6m karma>100')
    expect(q.ok && q.query.alternatives[0]).toMatchObject({ age: [{ op: '>=', amount: 180 }], karma: [{ op: '>', amount: 100 }] })
    expect(parseTerm('rmr age>=1y').ok && (parseTerm('rmr age>=1y') as any).query.alternatives[0].age).toEqual([{ op: '>=', amount: 365 }])
    expect(parseTerm('rmr age>=30')).toEqual({
      ok: false,
      error: 'An account age bound needs a whole number of days, months or years, like age>=30d, age>=6m or age>=1y',
    })
    expect(parseTerm('rmr karma>=lots')).toEqual({ ok: false, error: 'A karma bound needs a whole number, like karma>=100' })
    expect(parseTerm('rmr -age>=30d')).toEqual({ ok: false, error: 'An age or karma bound cannot be excluded: use the opposite bound, like age<30d' })
    expect(parseTerm('karma>=100')).toEqual({
      ok: false,
      error: 'A term needs at least one word to look for; a seller bound like "karma>=100" alone matches nothing',
    })
  })

  test('a post matches only when the looked-up account meets every bound; an unknown account meets none', () => {
    expect(matches('rmr age>=30d', post(400, 50))).toBe(true)
    expect(matches('rmr age>=30d', post(12, 50))).toBe(false)
    expect(matches('rmr karma>=100', post(400, 50))).toBe(false)
    expect(matches('rmr karma<100', post(400, 50))).toBe(true)
    expect(matches('rmr age>=30d karma>=10', post(null, null))).toBe(false)
    expect(matches('rmr', post(null, null))).toBe(true)
  })

  test('explained in words', () => {
    const explain = (term: string, p: ReturnType<typeof post>) => {
      const parsed = parseTerm(term)
      if (!parsed.ok) throw new Error(parsed.error)
      return explainTerm(compileTerm(parsed.query), p, 'wts').alternatives[0]!
    }
    expect(explain('rmr age>=30d', post(12, 5)).reasons[0]!.text).toBe("the seller's account was 12 days old, younger than age>=30d")
    expect(explain('rmr karma>=100', post(12, 5)).reasons[0]!.text).toBe('the seller has 5 karma, less than karma>=100')
    expect(explain('rmr age>=30d', post(null, null)).reasons[0]!.text).toBe(
      "the seller's account age is not known (age>=30d: looked up over Reddit OAuth, within minutes of the post)",
    )
    expect(explain('rmr age>=1y', post(400, 5)).text).toBe('rmr age>=365d')
  })
})

describe('seller trust in alerts', () => {
  test('one line: trades, account age, karma; empty when nothing is known', () => {
    expect(sellerText({ trades: 12, ageDays: 800, karma: 1234 })).toBe('12 trades · account 2 y · 1.2k karma')
    expect(sellerText({ trades: 1, ageDays: 45, karma: 12_345 })).toBe('1 trade · account 1 mo · 12k karma')
    expect(sellerText({ trades: null, ageDays: 3, karma: null })).toBe('account 3 d')
    expect(sellerText({ trades: null, ageDays: null, karma: null })).toBe('')
  })
  test("Reddit's about answer: created_utc in ms, total karma; a suspended account is missing", () => {
    expect(parseAbout(JSON.stringify({ kind: 't2', data: { created_utc: 1_600_000_000, link_karma: 10, comment_karma: 5, total_karma: 20 } }))).toEqual({
      status: 'found',
      accountCreatedAt: 1_600_000_000_000,
      karma: 20,
    })
    expect(parseAbout(JSON.stringify({ kind: 't2', data: { created_utc: 1, link_karma: 10, comment_karma: 5 } })).status).toBe('found')
    expect(parseAbout(JSON.stringify({ kind: 't2', data: { name: 'x', is_suspended: true } }))).toEqual({ status: 'missing' })
    expect(() => parseAbout('{"kind":"Listing"}')).toThrow()
  })
})
