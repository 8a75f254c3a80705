// docs/atomicity-audit.md B6: a preferences PATCH that runs while a one-click unsubscribe commits does
// not write the old email frequency back. updatePrefs reads and writes in one transaction, so the
// unsubscribe's statement runs before or after it, never in between.
import { afterEach, expect, test } from 'bun:test'
import { updatePrefs, getPrefs } from '../../../src/notify/prefs'
import { createUnsubscribeToken, unsubscribe } from '../../../src/notify/unsubscribe'
import { makeDeps, testClock, type TestDeps } from '../../helpers'

let deps: TestDeps | null = null
afterEach(() => {
  deps?.close()
  deps = null
})

test('a quiet-hours change and a one-click unsubscribe at once: the user stays unsubscribed', async () => {
  const d = (deps = makeDeps({}, testClock(Date.UTC(2026, 5, 1, 12, 0))))
  d.sqlite.run('INSERT INTO users (id, email) VALUES (1, ?)', ['u1@example.com'])
  const access = { role: 'admin' as const, subscriptionStatus: null, accessExpiresAt: null }
  await updatePrefs(d, 1, access, { email_frequency: 'instant' })
  const token = createUnsubscribeToken(d.config.secrets.unsubscribeSecret, 1, d.now())

  const [, result] = await Promise.all([updatePrefs(d, 1, access, { quiet_hours: { start: '22:00', end: '07:00', time_zone: 'UTC' } }), unsubscribe(d, token)])
  expect(result).toEqual({ status: 'success' })
  const prefs = await getPrefs(d, 1)
  expect(prefs.email_frequency).toBe('none')
  expect(prefs.quiet).toEqual({ start: '22:00', end: '07:00', timeZone: 'UTC' })
})
