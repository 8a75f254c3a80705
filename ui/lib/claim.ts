// The signed-in user's claim message template for the match cards' Claim button: loaded once from the notification
// preferences, updated when Notification Settings saves it. The card builds its link with the server's pure
// function (src/notify/claim.ts alertActions), so the app and every alert channel claim the same way.
import { signal } from '@preact/signals-react'
import { api, call } from '../client'
import { DEFAULT_CLAIM_TEMPLATE } from '../../src/notify/claim'

export const claimTemplate = signal<string>(DEFAULT_CLAIM_TEMPLATE)
let loading: Promise<void> | null = null

/** Loads the template once per page (the match lists call it on mount). */
export function loadClaimTemplate(): Promise<void> {
  loading ??= call(api.notifications.preferences.get())
    .then((p) => {
      claimTemplate.value = p.claim_template ?? DEFAULT_CLAIM_TEMPLATE
    })
    .catch(() => undefined)
  return loading
}

/** "14 s", "2 min 5 s", "1 h 3 min". */
export function claimDelayText(ms: number): string {
  const s = Math.round(ms / 1000)
  if (s < 60) return `${s} s`
  const m = Math.floor(s / 60)
  if (m < 60) return s % 60 ? `${m} min ${s % 60} s` : `${m} min`
  const h = Math.floor(m / 60)
  return m % 60 ? `${h} h ${m % 60} min` : `${h} h`
}
