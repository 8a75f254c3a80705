// This device's web push subscription: subscribe from a click (permission prompt), send it to the
// server, and undo both. Used by the Notification Settings dialog.
import { api, call } from './client'

export function pushSupported(): boolean {
  return typeof window !== 'undefined' && 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window
}

function keyBytes(base64url: string): Uint8Array {
  const pad = '='.repeat((4 - (base64url.length % 4)) % 4)
  const raw = atob((base64url + pad).replace(/-/g, '+').replace(/_/g, '/'))
  return Uint8Array.from(raw, (c) => c.charCodeAt(0))
}

async function registration(timeoutMs = 10_000): Promise<ServiceWorkerRegistration> {
  const existing = await navigator.serviceWorker.getRegistration('/')
  if (!existing) await navigator.serviceWorker.register('/sw.js', { scope: '/' })
  return Promise.race([
    navigator.serviceWorker.ready,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error('The service worker did not start.')), timeoutMs)),
  ])
}

export async function currentSubscription(): Promise<PushSubscription | null> {
  if (!pushSupported()) return null
  const reg = await navigator.serviceWorker.getRegistration('/')
  return reg ? reg.pushManager.getSubscription() : null
}

/** Asks permission, subscribes with the server's VAPID key and stores the subscription. */
export async function subscribeThisDevice(): Promise<void> {
  if (!pushSupported()) throw new Error('Web push is not supported in this browser.')
  const permission = await Notification.requestPermission()
  if (permission !== 'granted') throw new Error('Notifications are blocked for this site in the browser settings.')
  const reg = await registration()
  const { publicKey } = await call(api.push['vapid-public-key'].get())
  let sub = await reg.pushManager.getSubscription()
  sub ??= await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(publicKey) as BufferSource })
  // A subscription made with an applicationServerKey always has its endpoint and keys (PushSubscriptionJSON leaves them optional).
  await call(api.push.subscriptions.post(sub.toJSON() as { endpoint: string; keys: { p256dh: string; auth: string } }))
}

/** Removes this device's subscription; returns how many devices of the account still have one. */
export async function unsubscribeThisDevice(): Promise<number> {
  const sub = await currentSubscription()
  if (!sub) return 0
  const { count } = await call(api.push.subscriptions.delete({ endpoint: sub.endpoint }))

  await sub.unsubscribe().catch(() => false)
  return count
}
