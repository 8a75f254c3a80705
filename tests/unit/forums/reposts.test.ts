// Reposts and bumps (src/forums/reposts.ts) and the price-drop texts (src/forums/price-history.ts).
import { describe, expect, test } from 'bun:test'
import { formatDollars, historyText, lastDrop, priceDropText, priceHistory } from '../../../src/forums/price-history'
import { isSameListing, listingWords, REPOST_WINDOW_MS, titlePrice, titleSimilarity } from '../../../src/forums/reposts'

const DAY = 24 * 3600_000
const T0 = Date.parse('2026-11-20T12:00:00Z')
const post = (title: string, over: Partial<{ author: string; days: number; postType: string | null }> = {}) => ({
  title,
  author: over.author ?? 'glock_guy',
  createdAt: T0 + (over.days ?? 0) * DAY,
  postType: over.postType === undefined ? 'wts' : over.postType,
})

describe('listing words', () => {
  test('price figures, trade codes and bump words are not part of a listing', () => {
    expect([...listingWords('[WTS] Glock 19 Gen 5 - $450 shipped OBO')].sort()).toEqual(['19', '5', 'gen', 'glock'])
    expect([...listingWords('[USA-TX] [H] Glock 19 Gen 5 [W] PayPal, 450 shipped')].sort()).toEqual(['19', '5', 'gen', 'glock', 'paypal', 'tx', 'usa'])
    expect([...listingWords('PRICE DROP: Aimpoint T2 ~~$650~~ $600 / 600$ / €550 / $1.2k')].sort()).toEqual(['2', 'aimpoint', 't'])
  })
})

describe('titleSimilarity (Dice on listing word sets)', () => {
  test.each([
    ['same words, different order and punctuation', '[WTS] Glock 19 Gen 5, 3 mags, holster', 'WTS: holster + Glock 19 Gen 5 + 3 mags', 1],
    ['price-only change', '[WTS] Glock 19 Gen 5 - $450', '[WTS] Glock 19 Gen 5 - $400', 1],
    ['a model number right before the price stays', '[WTS] EOTech EXPS3-2 $450', '[WTS] BUMP EOTech EXPS3-2, $450 shipped', 1],
    ['the glued form wins', 'EOTech EXPS3-2 450$ 400$', 'EOTech EXPS3-2 $ 400', 1],
    ['bump tag and price drop', '[WTS] Glock 19 Gen 5 - $450', '[WTS] PRICE DROP Glock 19 Gen 5 - now $400 shipped', 1],
    ['one word added to five', '[WTS] Vortex Razor HD spotting scope', '[WTS] Vortex Razor HD spotting scope mint', 10 / 11],
    ['one word changed of five', 'Vortex Razor HD spotting scope', 'Vortex Razor HD spotting optic', 0.8],
    ['two words changed of five', 'Vortex Razor HD spotting scope', 'Vortex Razor HD riflescope mint', 0.6],
    ['different items', '[WTS] Aimpoint T2', '[WTS] Holosun 507C', 0],
    ['a title of only a price', '$450', '$400', 0],
  ])('%s', (_name, a, b, expected) => {
    expect(titleSimilarity(a, b)).toBeCloseTo(expected, 5)
  })
})

describe('isSameListing', () => {
  test.each([
    ['a bump two days later, same title', post('[WTS] Glock 19 Gen 5 - $450'), post('[WTS] Glock 19 Gen 5 - $450', { days: 2 }), true],
    [
      'a bump with changed wording',
      post('[WTS] Glock 19 Gen 5 w/ 3 mags and holster - $450'),
      post('Glock 19 Gen 5, 3 mags, holster [WTS] $450 OBO', { days: 3 }),
      true,
    ],
    ['a price cut', post('[WTS] Glock 19 Gen 5 - $450'), post('[WTS] Glock 19 Gen 5 - $400', { days: 2 }), true],
    ['author case differs', post('[WTS] Glock 19 Gen 5', { author: 'Glock_Guy' }), post('[WTS] Glock 19 Gen 5', { author: 'glock_GUY', days: 1 }), true],
    ['13 days later', post('[WTS] Glock 19 Gen 5'), post('[WTS] Glock 19 Gen 5', { days: 13 }), true],
    ['15 days later', post('[WTS] Glock 19 Gen 5'), post('[WTS] Glock 19 Gen 5', { days: 15 }), false],
    ['earlier, not later', post('[WTS] Glock 19 Gen 5', { days: 2 }), post('[WTS] Glock 19 Gen 5'), false],
    ['same title by another author', post('[WTS] Glock 19 Gen 5 - $450'), post('[WTS] Glock 19 Gen 5 - $450', { author: 'someone_else', days: 1 }), false],
    [
      'a deleted author is nobody',
      post('[WTS] Glock 19 Gen 5', { author: '[deleted]' }),
      post('[WTS] Glock 19 Gen 5', { author: '[deleted]', days: 1 }),
      false,
    ],
    ['different model number', post('[WTS] Glock 19 Gen 5 - $450'), post('[WTS] Glock 17 Gen 5 - $450', { days: 1 }), false],
    ['different generation', post('[WTS] Glock 19 Gen 5 OD green'), post('[WTS] Glock 19 Gen 3 OD green', { days: 1 }), false],
    ['different items by the same author', post('[WTS] Aimpoint T2 with LRP mount'), post('[WTS] Holosun 507C X2 with mount', { days: 1 }), false],
    ['a WTB is not a repost of a WTS', post('[WTS] Glock 19 Gen 5'), post('[WTB] Glock 19 Gen 5', { days: 1, postType: 'wtb' }), false],
  ])('%s', (_name, earlier, later, expected) => {
    expect(isSameListing(earlier, later)).toBe(expected)
  })

  test('the window is 14 days, inclusive', () => {
    const a = post('[WTS] Glock 19 Gen 5')
    expect(isSameListing(a, { ...a, createdAt: T0 + REPOST_WINDOW_MS })).toBe(true)
    expect(isSameListing(a, { ...a, createdAt: T0 + REPOST_WINDOW_MS + 1 })).toBe(false)
  })
})

describe('title price', () => {
  test.each([
    ['[WTS] Glock 19 Gen 5 - $450', 450],
    ['[WTS] Glock 19 $450, holster $40', 450],
    ['[WTS] Glock 19 ~~$500~~ $450', 450],
    ['[WTS] Glock 19 Gen 5', null],
    ['[WTS] Aimpoint $1,200.50', 1200.5],
  ])('%s → %p', (title, price) => {
    expect(titlePrice(title)).toBe(price)
  })
})

describe('price drop texts and history', () => {
  test.each([
    ['Price drop: $450 → $400', { from: 450, to: 400 }],
    ['Price drop: $1,200 → $1,100', { from: 1200, to: 1100 }],
    ['Price drop: $19.99 → $15', { from: 19.99, to: 15 }],
    ['Price drop: $20.50 → $19.50', { from: 20.5, to: 19.5 }],
  ])('%s', (text, drop) => {
    expect(priceDropText(drop)).toBe(text)
  })

  test('amounts without cents when whole', () => {
    expect(formatDollars(400)).toBe('$400')
    expect(formatDollars(400.0)).toBe('$400')
    expect(formatDollars(0.4)).toBe('$0.40')
  })

  test('history keeps each change once and ends in a drop only when the last change was down', () => {
    const h = priceHistory([
      { price: 450, at: 'a' },
      { price: null, at: 'b' },
      { price: 450, at: 'c' },
      { price: 400, at: 'd' },
      { price: 400, at: 'e' },
    ])
    expect(h).toEqual([
      { price: 450, at: 'a' },
      { price: 400, at: 'd' },
    ])
    expect(lastDrop(h)).toEqual({ from: 450, to: 400 })
    expect(lastDrop([...h, { price: 420, at: 'f' }])).toBeNull()
    expect(lastDrop([{ price: 450, at: 'a' }])).toBeNull()
    expect(historyText(h, (at) => at.toUpperCase())).toBe('$450 (A) → $400 (D)')
  })
})
