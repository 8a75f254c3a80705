// PWA plumbing (spec §1, §4): service worker registration, online/offline state for the offline
// badge, and the install prompt, offered only when the browser fires `beforeinstallprompt` and
// the app is not already installed (standalone, fullscreen, minimal-ui or iOS standalone).
import { computed, signal } from '@preact/signals-react'
import { toast } from './toast'

type InstallPromptEvent = Event & { prompt(): Promise<void>; userChoice: Promise<{ outcome: 'accepted' | 'dismissed' }> }

export const online = signal(typeof navigator === 'undefined' ? true : navigator.onLine)
export const installPrompt = signal<InstallPromptEvent | null>(null)
export const installed = signal(false)
export const canInstall = computed(() => installPrompt.value !== null && !installed.value)

export function isStandalone(): boolean {
  if (typeof window === 'undefined') return false
  const modes = ['standalone', 'fullscreen', 'minimal-ui']
  return modes.some((m) => window.matchMedia?.(`(display-mode: ${m})`).matches) || (navigator as { standalone?: boolean }).standalone === true
}

/** Shows the browser's install dialog; the saved event can be used once. */
export async function promptInstall(): Promise<'accepted' | 'dismissed' | 'unavailable'> {
  const e = installPrompt.value
  if (!e) return 'unavailable'
  installPrompt.value = null
  await e.prompt()
  const { outcome } = await e.userChoice
  if (outcome === 'accepted') installed.value = true
  return outcome
}

let started = false

export function startPwa() {
  if (started || typeof window === 'undefined') return
  started = true
  installed.value = isStandalone()
  window.addEventListener('online', () => (online.value = true))
  window.addEventListener('offline', () => (online.value = false))
  window.addEventListener('beforeinstallprompt', (e) => {
    e.preventDefault()
    if (!isStandalone()) installPrompt.value = e as InstallPromptEvent
  })
  window.addEventListener('appinstalled', () => {
    installed.value = true
    installPrompt.value = null
  })
  if ('serviceWorker' in navigator) {
    const hadController = navigator.serviceWorker.controller !== null
    // A new release's worker takes over by itself (skipWaiting); tell the user once.
    navigator.serviceWorker.addEventListener('controllerchange', () => {
      if (hadController) toast({ title: 'App updated', description: 'A new version is ready. Reload the page to use it.' })
    })
    const register = () =>
      navigator.serviceWorker.register('/sw.js', { scope: '/', updateViaCache: 'none' }).catch((err) => console.warn('service worker registration failed', err))
    if (document.readyState === 'complete') void register()
    else window.addEventListener('load', () => void register(), { once: true })
  }
}
