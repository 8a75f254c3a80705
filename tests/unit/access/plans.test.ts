import { describe, expect, test } from 'bun:test'
import { TRIAL_DAYS, formatPrice, parsePlanId, planById, planLine, plans, trialEndsAt } from '../../../src/access/plans'

describe('plans (§1, §9)', () => {
  test('there are three plans: GAFS $15, GunDeals (GD) $10 and the GAFS + GD bundle $20', () => {
    expect(plans('GAFS').map((p) => [p.id, p.name, p.priceCents])).toEqual([
      ['product', 'GAFS', 1500],
      ['gd', 'GunDeals (GD)', 1000],
      ['product+gd', 'GAFS + GD', 2000],
    ])
  })
  test('the {product} plan lists its four features', () => {
    expect(planById('product').features).toEqual(['10 WTB terms', '10 WTS terms', 'Real-time notifications', 'Unlimited match history'])
  })
  test('the GD plan lists its four features', () => {
    expect(planById('gd').features).toEqual(['10 deal terms', 'Instant alerts', 'Real-time notifications', 'Unlimited history'])
  })
  test('only the bundle is marked best value, and it saves $5', () => {
    const all = plans()
    expect(all.filter((p) => p.bestValue).map((p) => p.id)).toEqual(['product+gd'])
    expect(planById('product+gd').features).toEqual(['10 WTS, 10 WTB and 10 deal terms', 'Both forums in one plan', 'Real-time notifications', 'Saves $5'])
    expect(planById('product').priceCents + planById('gd').priceCents - planById('product+gd').priceCents).toBe(500)
  })
  test('plan names follow a configured product label', () => {
    expect(plans('Parts').map((p) => p.name)).toEqual(['Parts', 'GunDeals (GD)', 'Parts + GD'])
  })
  test('prices print as whole dollars per month', () => {
    expect(formatPrice(1500)).toBe('$15')
    expect(formatPrice(999)).toBe('$9.99')
    expect(planLine(planById('product+gd'))).toBe('GAFS + GD — $20/month')
  })
  test('the trial lasts 7 days from confirmation', () => {
    expect(TRIAL_DAYS).toBe(7)
    expect(trialEndsAt(new Date('2025-06-01T00:00:00Z')).toISOString()).toBe('2025-06-08T00:00:00.000Z')
  })
})

describe('parsePlanId', () => {
  const cases: [string, string | null][] = [
    ['product', 'product'],
    ['gafs', 'product'],
    ['GAFS', 'product'],
    ['gd', 'gd'],
    ['GunDeals', 'gd'],
    ['GunDeals (GD)', 'gd'],
    ['product+gd', 'product+gd'],
    ['gafs+gd', 'product+gd'],
    ['GAFS + GD', 'product+gd'],
    ['gd+gafs', 'product+gd'],
    ['bundle', 'product+gd'],
    ['  Bundle ', 'product+gd'],
    ['pro', null],
    ['', null],
    ['gafs+gafs', null],
  ]
  test.each(cases)('%p reads as %p', (text, id) => {
    expect(parsePlanId(text, 'GAFS')).toBe(id as never)
  })
  test('a custom product label is accepted as the product plan', () => {
    expect(parsePlanId('parts', 'Parts')).toBe('product')
    expect(parsePlanId('parts+gd', 'Parts')).toBe('product+gd')
    expect(parsePlanId('gafs', 'Parts')).toBe(null)
  })
})
