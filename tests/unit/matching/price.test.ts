import { describe, expect, test } from 'bun:test'
import { extractPrices, parseAmount, pricesSatisfy, readPrices } from '../../../src/matching/price'

describe('extractPrices: the item prices (total) of a text', () => {
  const cases: [string, number[]][] = [
    ['[WTS] Trijicon RMR Type 2 RM06 3.25 MOA - $450 shipped', [450]],
    ['$1,200 OBO', [1200]],
    ['$1,200.50', [1200.5]],
    ['Aimpoint T2 $1.2k', [1200]],
    ['Aimpoint T2 $1k', [1000]],
    ['450$ shipped', [450]],
    ['$ 450 shipped', [450]],
    ['450 $ obo', [450]],
    ['$450 + $20 shipping', [450]],
    ['450$ 500$', [450, 500]],
    ['Glock 19 $450', [450]],
    ['AR-15 lower $150', [150]],
    ['$450 kydex holster', [450]],
    ['＄５００ full-width', [500]],
    ['P365 450 shipped', [450]],
    ['P365 in 9mm', []],
    ['no price here', []],
    ['9mm 124gr 1000 rounds', []],
  ]
  for (const [title, want] of cases) {
    test(`"${title}" → ${JSON.stringify(want)}`, () => expect(extractPrices(title)).toEqual(want))
  }
})

describe('readPrices: every figure with its role and unit', () => {
  // [text, "amount:role:unit …"] — role and unit only when not item/total
  const cases: [string, string][] = [
    // currencies and forms
    ['$450', '450'],
    ['75 USD', '75'],
    ['75 dollars', '75'],
    ['€85,00', '85'],
    ['85€', '85'],
    ['$.40', '0.4'],
    ['40¢', '0.4'],
    ['$1.2k', '1200'],
    ['Rolex 16610 1.2k', '1200'],
    ['＄５００', '500'],
    ['$1,200.50', '1200.5'],
    ['Tudor Black Bay 36 $150', '150'],
    // bare numbers with a price word
    ['420 shipped', '420'],
    ['420 obo', '420'],
    ['300 OBO', '300'],
    ['300 firm', '300'],
    ['asking 300', '300'],
    ['Price: 300', '300'],
    // a bare number after a spaced dash that ends its item
    ['Holosun 507C, RMR-style - 240', '240'],
    ['Aimpoint Micro T-2 no mount - 629.00', '629'],
    ['Glock 19 Gen 5 - 475, ships free', '475'],
    ['X300 - 150 / TLR-1 - 90', '150 90'],
    ['RMR - 350 + $20 shipping', '350 20:shipping'],
    ['𝘎𝘭𝘰𝘤𝘬 19 𝘎𝘦𝘯 5 - 𝟒𝟕𝟓', '475'],
    ['Glock 19 - 3 mags', ''],
    ['size 9 - 10', ''],
    ['Sig P320 - 9mm - 17 + 1', ''],
    ['Tikka T3x - 2019', ''],
    ['P365 - 10/15rd mags', ''],
    // not prices
    ['P365 9mm 1000rd', ''],
    ['9mm 124gr 1000 rounds', ''],
    ['10k gold', ''],
    ['Glock 19 Gen 5', ''],
    ['Trades: 12', ''],
    ['SOLD', ''],
    // roles
    ['$450 shipped', '450'],
    ['$450 + $20 shipping', '450 20:shipping'],
    ['RMR $450 + $20 shipped', '450 20:shipping'],
    ['$20 shipping', '20:shipping'],
    ['shipping $20', '20:shipping'],
    ['was $420 now $380', '420:was 380'],
    ['MSRP $500, asking $400', '500:was 400'],
    ['retails for $500', '500:was'],
    ['paid $500, selling $400', '500:was 400'],
    ['$500 new', '500:was'],
    ['~~$500~~ $450', '500:was 450'],
    ['brand new $400', '400'],
    ['$20 off', '20:discount'],
    ['save $50 on an RMR', '50:discount'],
    ['$10 rebate', '10:discount'],
    ['$279 after $30 mail-in rebate', '279:was 30:discount'],
    ['$64.99 after MIR', '64.99:was'],
    ['$64.99 after instant rebate', '64.99'],
    ['$199 after code SAVE20', '199'],
    ['$25 gift card with purchase', '25:giftcard'],
    ['$50 GC', '50:giftcard'],
    // units
    ['$0.25/rd', '0.25:round'],
    ['$0.25 per round', '0.25:round'],
    ['28 cpr', '0.28:round'],
    ['28¢/rd', '0.28:round'],
    ['$280/1000', '280 0.28:round'],
    ['$6.36/box of 20 (~33CPR)', '6.36 0.318:round 0.33:round'],
    ['$12 each', '12:each'],
    ['$12/ea', '12:each'],
    ['$12 a piece', '12:each'],
    ['5 for $50', '50 10:each'],
    ['(.22/rd)', '0.22:round'],
    ['.22 LR 500 rds $45', '45 0.09:round'],
    ['9mm 115gr 1000rd - $239.00', '239 0.239:round'],
    ['1k rds, 280 shipped', '280 0.28:round'],
    ['Glock 17 mags 17rd $25', '25'],
    ['Magpul MOE 5-pack - $59.95', '59.95 11.99:each'],
    ['Magpul 30rd window mags x5 $60', '60 12:each'],
    ['pack of 3 $36', '36 12:each'],
    ['Glock 19 for $450', '450'],
    ['Gen 5 for $500', '500'],
  ]
  const show = (text: string) =>
    readPrices(text)
      .map((p) => [p.amount, p.role === 'item' ? '' : p.role, p.unit === 'total' ? '' : p.unit].filter((x) => x !== '').join(':'))
      .join(' ')
  for (const [text, want] of cases) test(`${JSON.stringify(text)} → ${want || 'none'}`, () => expect(show(text)).toBe(want))

  test('spans point at the figure in the original text', () => {
    const text = 'RMR $450 + $20 shipping'
    expect(readPrices(text).map((p) => text.slice(p.start, p.end))).toEqual(['$450', '$20'])
    const styled = '𝗥𝗠𝗥 $𝟰𝟱𝟬 + $20 shipping'
    expect(readPrices(styled).map((p) => styled.slice(p.start, p.end))).toEqual(['$𝟰𝟱𝟬', '$20'])
  })

  test('linear: 100 kB adversarial texts are read quickly', () => {
    const adversarial = [
      '$1,'.repeat(35_000),
      '1'.repeat(100_000),
      '$ '.repeat(50_000),
      '1.1.1.1'.repeat(15_000),
      'was ~~'.repeat(17_000) + '$5',
      '5 for $5 '.repeat(11_000),
      ',000'.repeat(25_000),
      ('was msrp retail ' + '$9 '.repeat(3)).repeat(4_000),
    ]
    for (const text of adversarial) {
      const t0 = performance.now()
      readPrices(text)
      expect(performance.now() - t0).toBeLessThan(1500)
    }
  })
})

describe('price bounds', () => {
  test('a bound amount may start with its decimal point', () => {
    expect(parseAmount('.40')).toBe(0.4)
    expect(parseAmount('0.40')).toBe(0.4)
  })
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
