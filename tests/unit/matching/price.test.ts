import { describe, expect, test } from 'bun:test'
import { extractPrices, parseAmount, pricesSatisfy } from '../../../src/matching/price'

describe('extractPrices: dollar amounts in a title', () => {
  const cases: [string, number[]][] = [
    ['[WTS] Trijicon RMR Type 2 RM06 3.25 MOA - $450 shipped', [450]],
    ['$1,200 OBO', [1200]],
    ['$1,200.50', [1200.5]],
    ['Aimpoint T2 $1.2k', [1200]],
    ['Aimpoint T2 $1k', [1000]],
    ['450$ shipped', [450]],
    ['$ 450 shipped', [450]],
    ['450 $ obo', [450]],
    ['$450 + $20 shipping', [450, 20]],
    ['450$ 500$', [450, 500]],
    ['Glock 19 $450', [450]],
    ['AR-15 lower $150', [150]],
    ['$450 kydex holster', [450]],
    ['＄５００ full-width', [500]],
    ['P365 450 shipped', []],
    ['no price here', []],
    ['9mm 124gr 1000 rounds', []],
  ]
  for (const [title, want] of cases) {
    test(`"${title}" → ${JSON.stringify(want)}`, () => expect(extractPrices(title)).toEqual(want))
  }
})

describe('price bounds', () => {
  test('amounts parse with commas, decimals and k', () => {
    expect(parseAmount('500')).toBe(500)
    expect(parseAmount('1,200')).toBe(1200)
    expect(parseAmount('1.5k')).toBe(1500)
    expect(parseAmount('abc')).toBeNull()
    expect(parseAmount('')).toBeNull()
  })
  test('one amount must satisfy every bound (a range)', () => {
    const range = [
      { op: '>' as const, amount: 100 },
      { op: '<' as const, amount: 500 },
    ]
    expect(pricesSatisfy([450], range)).toBe(true)
    expect(pricesSatisfy([50, 600], range)).toBe(false)
    expect(pricesSatisfy([], range)).toBe(false)
  })
  test('<= and >= include the amount, < and > do not', () => {
    expect(pricesSatisfy([500], [{ op: '<=', amount: 500 }])).toBe(true)
    expect(pricesSatisfy([500], [{ op: '<', amount: 500 }])).toBe(false)
    expect(pricesSatisfy([100], [{ op: '>=', amount: 100 }])).toBe(true)
    expect(pricesSatisfy([100], [{ op: '>', amount: 100 }])).toBe(false)
  })
})
