// A price-drop alert (src/matches/listing.ts) reads 'Price drop: $450 → $400' on every channel:
// email subject and heading, push title, ntfy title (Latin-1 header: '->'), Discord description,
// webhook JSON (match.priceDrop). A normal match keeps its 'New … match' texts.
import { describe, expect, test } from 'bun:test'
import type { MatchItem } from '../../../src/contract/events'
import { pushMessage } from '../../../src/notify/dispatcher'
import { externalAlert } from '../../../src/notify/external'
import { digestEmail, matchEmail } from '../../../src/notify/templates'
import { discordBody } from '../../../src/outbox/channels/discord'
import { ntfyRequest } from '../../../src/outbox/channels/ntfy'
import { makeConfig } from '../../helpers'

const config = makeConfig({ APP_URL: 'https://dibs.example.com' })
const base: MatchItem = {
  id: 7,
  postId: 3,
  title: '[WTS] Glock 19 Gen 5 - $400',
  url: 'https://www.reddit.com/r/GunAccessoriesForSale/comments/abc/',
  linkUrl: null,
  author: 'glock_guy',
  createdAt: '2026-11-22T12:00:00.000Z',
  postCreatedAt: '2026-11-22T12:00:00.000Z',
  matchedTerms: ['glock 19'],
  isNew: true,
  category: 'wts',
  source: 'live',
  archivedAt: null,
  state: 'open',
}
const drop = { ...base, priceDrop: { from: 450, to: 400 } }

describe('price-drop alert texts', () => {
  test('email: subject starts with the drop, heading says it', () => {
    const mail = matchEmail(config, 'pat@example.com', drop, 'https://dibs.example.com/u')
    expect(mail.subject).toBe('Price drop: $450 → $400 · [WTS] Glock 19 Gen 5 - $400')
    expect(mail.text).toContain('Price drop: $450 → $400')
    expect(matchEmail(config, 'pat@example.com', base, 'https://dibs.example.com/u').subject).toBe('[WTS] Glock 19 Gen 5 - $400 · GAFS WTS match')
  })

  test('a digest names the drop beside its match', () => {
    const mail = digestEmail(config, 'pat@example.com', [drop, { ...base, id: 8, title: '[WTS] Aimpoint T2' }], 'https://dibs.example.com/u')
    expect(mail.text).toContain('Price drop: $450 → $400 · Matched term: glock 19')
    expect(mail.text.match(/Price drop/g)).toHaveLength(1)
  })

  test('push title', () => {
    expect(pushMessage({ config }, drop).title).toBe('Price drop: $450 → $400')
    expect(pushMessage({ config }, base).title).toBe('New GAFS WTS match')
  })

  test('external channels: webhook JSON, ntfy title, Discord description', () => {
    const alert = externalAlert(config, drop)
    expect(alert.match.priceDrop).toEqual({ from: 450, to: 400 })
    expect(externalAlert(config, base).match.priceDrop).toBeNull()
    expect(ntfyRequest(alert, {}, null).headers.title).toBe('Price drop: $450 -> $400')
    expect(ntfyRequest(externalAlert(config, base), {}, null).headers.title).toBe('New GAFS WTS match · $400')
    expect(discordBody(alert, 'Dibs').embeds[0]!.description!.split('\n')[0]).toBe('Price drop: $450 → $400 by u/glock_guy')
  })
})
