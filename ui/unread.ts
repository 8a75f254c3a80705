// Unread match counts per category (badges on the nav tabs), kept live by 'unread' messages.
import { effect, signal } from '@preact/signals-react'
import type { UnreadCounts } from '../src/contract/events'
import { api, call, within } from './client'
import { onMessage } from './realtime'
import { config } from './state'
import { me } from './account'

export const unread = signal<UnreadCounts>({ wts: 0, wtb: 0, gd: 0 })

export async function loadUnread(): Promise<UnreadCounts> {
  const counts: UnreadCounts = await call(api.unread.get({ fetch: within(5000) }))

  unread.value = counts
  return counts
}

let wired = false
export function wireUnread() {
  if (wired) return
  wired = true
  onMessage('unread', (d) => (unread.value = d.counts))
  onMessage('reconnected', () => void loadUnread().catch(() => {}))
}

/** '(3) Dibs': the unread total in front of the app name. */
export function titleWith(total: number, appName: string): string {
  return total > 0 ? `(${total > 99 ? '99+' : total}) ${appName}` : appName
}

// Signed out: no counts left behind (title, badge).
effect(() => {
  if (me.value === null) unread.value = { wts: 0, wtb: 0, gd: 0 }
})

// The tab title and the installed app's badge (Badging API) follow the unread total.
effect(() => {
  const c = unread.value
  const total = c.wts + c.wtb + c.gd
  if (typeof document === 'undefined') return
  document.title = titleWith(total, config.value.appName)
  const nav = navigator as Navigator & { setAppBadge?: (n?: number) => Promise<void>; clearAppBadge?: () => Promise<void> }
  if (total > 0) void nav.setAppBadge?.(total).catch(() => {})
  else void nav.clearAppBadge?.().catch(() => {})
})
