import { describe, expect, test } from 'bun:test'
import { describeAudit } from '../../../src/audit/describe'

describe('audit rows in words (Recent Activity)', () => {
  test.each([
    ['settings.is_emergency_paused', 'is_emergency_paused', { active: true }, 'Emergency pause turned on'],
    ['settings.is_emergency_paused', 'is_emergency_paused', { active: false }, 'Emergency pause turned off'],
    ['settings.is_maintenance_mode_active', 'is_maintenance_mode_active', { active: true }, 'Maintenance mode turned on'],
    ['user.ban', 'user:12', {}, 'Banned user:12'],
    ['user.trial_extend', 'user:3', { days: 7 }, 'Trial of user:3 extended by 7 days'],
    ['matching.batch', null, { matches_created: 4 }, 'Batch matching: 4 matches created'],
    ['billing.payment_failed', 'user:9', {}, 'Stripe: payment of user:9 failed'],
    ['something.new_thing', 'x:1', null, 'Something new thing (x:1)'],
  ] as const)('%s %s %o → %s', (action, target, details, text) => {
    expect(describeAudit({ action, target, details: details as Record<string, unknown> | null })).toBe(text)
  })
})
