// Issue 12 item 10: the unread total in the tab title and on the installed app's badge.
import { GlobalRegistrator } from '@happy-dom/global-registrator'
import { afterAll, expect, test } from 'bun:test'

GlobalRegistrator.register({ url: 'http://localhost:3000/dashboard' })
const badges: (number | 'clear')[] = []
Object.assign(navigator, {
  setAppBadge: async (n: number) => void badges.push(n),
  clearAppBadge: async () => void badges.push('clear'),
})
const { unread, titleWith } = await import('../../ui/unread')
const { me } = await import('../../ui/account')
afterAll(async () => {
  unread.value = { wts: 0, wtb: 0, gd: 0 }
  await GlobalRegistrator.unregister()
})

test('titleWith', () => {
  expect(titleWith(0, 'Dibs')).toBe('Dibs')
  expect(titleWith(3, 'Dibs')).toBe('(3) Dibs')
  expect(titleWith(250, 'Rifle Alerts')).toBe('(99+) Rifle Alerts')
})

test('the title and the app badge follow the counts; signing out clears them', () => {
  unread.value = { wts: 2, wtb: 0, gd: 1 }
  expect(document.title).toBe('(3) Dibs')
  expect(badges.at(-1)).toBe(3)
  unread.value = { wts: 0, wtb: 0, gd: 0 }
  expect(document.title).toBe('Dibs')
  expect(badges.at(-1)).toBe('clear')
  unread.value = { wts: 1, wtb: 0, gd: 0 }
  me.value = null
  expect(document.title).toBe('Dibs')
})
