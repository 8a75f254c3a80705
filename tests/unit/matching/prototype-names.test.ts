// Text from outside (titles, bodies, authors, flairs, terms) must never reach a plain object used as a map:
// "[WTS] LEGO constructor kit" once made every scan fail (`pair.has is not a function`) because a token was
// looked up in an object literal and found Object.prototype.constructor. Every name on Object.prototype
// (and __proto__), in the case forms a forum post can carry, goes through each pure reader here.
import { describe, expect, test } from 'bun:test'
import { CATEGORIES } from '../../../src/access/categories'
import { classify, flairTag, postTag, titleCodes } from '../../../src/forums/classify'
import { detectPostState, detectPrice } from '../../../src/forums/post-state'
import { titleSides, sidesTag } from '../../../src/forums/sides'
import { compileTerm, matchesPost, preparePost } from '../../../src/matching/compile'
import { explainTerm } from '../../../src/matching/explain'
import { highlight } from '../../../src/matching/highlight'
import { normalize } from '../../../src/matching/normalize'
import { parseTerm } from '../../../src/matching/parse'
import { readPrices } from '../../../src/matching/price'
import { TermIndex } from '../../../src/matching/term-index'
import { HOSTILE_WORDS } from '../../fixtures/prototype-names'

const forums = { accessories: 'GunAccessoriesForSale', deals: 'gundeals' }

function titlesFor(w: string): string[] {
  return [
    `[WTS] LEGO ${w} kit`,
    `[WTS] ${w} - $50`,
    `[${w}] Aimpoint T2 $650`,
    `${w}: Aimpoint T2`,
    `[H] ${w} kit [W] PayPal`,
    `[US-${w}] [H] ${w} kit [W] PayPal`,
    `[H] PayPal [W] ${w}`,
    `[USA-${w}] [H] RMR [W] ${w}`,
    `[WTS/${w}] gel ${w} bb ${w}`,
    `[WTB] ${w} ${w} x2 $${w}/ea`,
  ]
}

describe('no name on Object.prototype breaks a reader', () => {
  test('classification, sides, flair and title codes', () => {
    for (const w of HOSTILE_WORDS) {
      for (const title of titlesFor(w)) {
        for (const code of titleCodes(title)) expect(['wts', 'wtb', 'wtt']).toContain(code)
        const tag = postTag(title, w)
        expect(tag === null || ['wts', 'wtb', 'wtt'].includes(tag)).toBe(true)
        const c = classify({ title, subreddit: w, flair: w }, forums)
        if (c) expect(c.postType === null || CATEGORIES.includes(c.postType)).toBe(true)
        titleSides(title)
        const s = sidesTag(title)
        expect(s === null || ['wts', 'wtb', 'wtt'].includes(s)).toBe(true)
      }
      const f = flairTag(w)
      expect(f === null || ['wts', 'wtb', 'wtt'].includes(f)).toBe(true)
      expect(classify({ title: '[WTS] RMR', subreddit: w, flair: null }, { accessories: w, deals: 'gundeals' })?.postType).toBe('wts')
    }
  })

  test('the post side: normalising, preparing, prices and state', () => {
    for (const w of HOSTILE_WORDS) {
      expect(Array.isArray(normalize(`${w} ${w}s ${w}ves`))).toBe(true)
      for (const title of titlesFor(w)) {
        const body = `${w}\n\n${w} kit - $40 shipped\n~~${w}~~ SOLD\n${w} for ${w}\n| ${w} | $20 |`
        const p = preparePost({ title, content: body, author: w, flair: w, authorFlair: `Trades: ${w}` })
        expect(p.tokens.length).toBeGreaterThan(0)
        for (const price of readPrices(`${title} ${body}`)) expect(Number.isFinite(price.amount)).toBe(true)
        const d = detectPrice(title, body)
        expect(d === null || Number.isFinite(d)).toBe(true)
        expect(typeof detectPostState({ title, content: body, flair: w })).toBe('string')
      }
    }
  })

  test('terms: parse, compile, the index, the reference, explain and highlight agree and never throw', () => {
    const idx = new TermIndex()
    let id = 1
    const termsOf = (w: string) => [
      w,
      `${w} kit`,
      `${w} x`,
      `"${w} kit"`,
      `${w}*`,
      `-${w} kit`,
      `${w} <$100`,
      `flair:${w} kit`,
      `glock 19 -${w}`,
      `rmr loc:${w}`,
      `rmr loc:"US-${w}"`,
    ]
    const compiled = new Map<string, ReturnType<typeof compileTerm>>()
    for (const text of HOSTILE_WORDS.flatMap(termsOf)) {
      const parsed = parseTerm(text)
      if (!parsed.ok) {
        expect(typeof parsed.error).toBe('string')
        continue
      }
      compiled.set(text, compileTerm(parsed.query))
      for (const category of CATEGORIES) expect(idx.add({ termId: id++, userId: 1, category, text })).toEqual({ ok: true })
    }
    expect(compiled.size).toBeGreaterThan(HOSTILE_WORDS.length)
    for (const w of HOSTILE_WORDS) {
      for (const title of titlesFor(w)) {
        const post = preparePost({ title, content: `${w} kit for sale, $40`, author: w, flair: w })
        for (const category of CATEGORIES) {
          const hits = new Set(idx.match(post, category).map((r) => r.text))
          for (const text of termsOf(w)) {
            const term = compiled.get(text)
            if (!term) continue
            expect(hits.has(text)).toBe(matchesPost(term, post, category))
            expect(typeof explainTerm(term, post, category).matched).toBe('boolean')
          }
        }
        expect(
          highlight(title, termsOf(w))
            .map((s) => s.text)
            .join(''),
        ).toBe(title)
      }
    }
    // and the words still match as words: "constructor kit" finds the LEGO post
    const post = preparePost({ title: '[WTS] LEGO constructor kit - $40' })
    expect(idx.match(post, 'wts').some((r) => r.text === 'constructor kit')).toBe(true)
  })
})
