// Unread match counts per category (badges on the nav tabs), kept live by 'unread' messages.
import { signal } from '@preact/signals-react'
import type { UnreadCounts } from '../src/contract/events'
import { api } from './api'
import { onMessage } from './realtime'

export const unread = signal<UnreadCounts>({ wts: 0, wtb: 0, gd: 0 })

export async function loadUnread(): Promise<UnreadCounts> {
  const counts = await api<UnreadCounts>('/api/unread', { timeoutMs: 5000 })
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
