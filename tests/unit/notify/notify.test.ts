// Pure pieces of the notifier: email templates, unsubscribe tokens,
// backoff, and the VAPID header cache.
import { describe, expect, test } from 'bun:test'
import webpush from 'web-push'
import { backoffMs, MAX_ATTEMPTS } from '../../../src/outbox/queue'
import { confirmationEmail } from '../../../src/auth/emails'
import { escapeHtml } from '../../../src/lib/html'
import { digestEmail, matchEmail, matchPageUrl } from '../../../src/notify/templates'
import { createUnsubscribeToken, verifyUnsubscribeToken } from '../../../src/notify/unsubscribe'
import { VapidHeaderCache } from '../../../src/outbox/channels/webpush'

const brand = { appName: 'Dibs', appUrl: 'https://dibs.example.com', productName: 'GAFS', productSlug: 'gafs' }
const match = { id: 7, title: '[WTS] <b>RMR</b> & "mount"', url: 'https://reddit.com/r/x/1', category: 'wts' as const, matchedTerms: ['rmr'] }

describe('email templates', () => {
  test('an instant email escapes post text in HTML and carries the RFC 8058 headers', () => {
    const mail = matchEmail(brand, 'a@b.c', match, 'https://dibs.example.com/api/unsubscribe?token=t')
    expect(mail.html).toContain(escapeHtml(match.title))
    expect(mail.html).not.toContain('<b>RMR</b>')
    expect(mail.text).toContain(match.title)
    expect(mail.headers).toEqual({
      'List-Unsubscribe': '<https://dibs.example.com/api/unsubscribe?token=t>',
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
      'List-Id': '"Dibs alerts" <alerts.dibs.example.com>',
    })
  })

  test('match pages per category', () => {
    expect(matchPageUrl(brand, 'wtb', 3)).toBe('https://dibs.example.com/dashboard/gafs/wtb?match=3')
    expect(matchPageUrl(brand, 'gd')).toBe('https://dibs.example.com/dashboard/gundeals')
  })

  test('a digest lists categories in the order WTS, WTB, Gundeals and skips empty ones', () => {
    const mail = digestEmail(brand, 'a@b.c', [{ ...match, category: 'gd' }, match], 'u')
    expect(mail.text.indexOf('GAFS WTS')).toBeLessThan(mail.text.indexOf('Gundeals'))
    expect(mail.text).not.toContain('GAFS WTB')
    expect(mail.subject).toBe('[Dibs] 2 new matches in your digest')
  })
})

describe('one email layout', () => {
  test('account and alert emails share it: the same wrapper, card and header around their own content', () => {
    const config = { ...brand, mailFrom: 'x' } as unknown as Parameters<typeof confirmationEmail>[0]
    const skeleton = (html: string) => html.replace(/<title>[^<]*<\/title>/, '').split('<h1')[0]
    const account = confirmationEmail(config, 'a@b.c', 'Pat', 'https://dibs.example.com/api/auth/confirm?token=t').html
    const alert = matchEmail(brand, 'a@b.c', match, 'u').html
    expect(skeleton(account)).toBe(skeleton(alert))
    expect(skeleton(account)).toContain('<table role="presentation" width="100%"')
  })
})

describe('unsubscribe tokens', () => {
  const now = new Date('2026-01-01T00:00:00Z')
  test('round trip', () => expect(verifyUnsubscribeToken('s', createUnsubscribeToken('s', 42, now), now)?.u).toBe(42))
  test('another secret, a flipped byte, extra parts, expiry', () => {
    const t = createUnsubscribeToken('s', 42, now)
    expect(verifyUnsubscribeToken('other', t, now)).toBeNull()
    expect(verifyUnsubscribeToken('s', t.slice(0, -1) + (t.endsWith('A') ? 'B' : 'A'), now)).toBeNull()
    expect(verifyUnsubscribeToken('s', `${t}.x`, now)).toBeNull()
    expect(verifyUnsubscribeToken('s', t, new Date('2027-01-01T00:00:00Z'))).toBeNull()
  })
})

describe('outbox backoff', () => {
  test('doubles from 5 s and caps at an hour', () => {
    expect([1, 2, 3, 4].map(backoffMs)).toEqual([5_000, 10_000, 20_000, 40_000])
    expect(backoffMs(MAX_ATTEMPTS)).toBe(3_600_000)
  })
})

describe('VAPID header cache', () => {
  const keys = { subject: 'mailto:a@example.com', ...webpush.generateVAPIDKeys() }
  test('signs once per push service origin and renews an hour before expiry', () => {
    let t = Date.parse('2026-01-01T00:00:00Z')
    const cache = new VapidHeaderCache(keys, () => new Date(t))
    const a = cache.authorization('https://fcm.googleapis.com/fcm/send/1')
    expect(cache.authorization('https://fcm.googleapis.com/fcm/send/2')).toBe(a)
    cache.authorization('https://updates.push.services.mozilla.com/wpush/v2/x')
    expect(cache.signed).toBe(2)
    t += 10 * 3600_000
    expect(cache.authorization('https://fcm.googleapis.com/fcm/send/3')).toBe(a)
    t += 1.5 * 3600_000
    expect(cache.authorization('https://fcm.googleapis.com/fcm/send/3')).not.toBe(a)
    expect(cache.signed).toBe(3)
  })
})
