// Dibs service worker, served unhashed at /sw.js with no-cache (src/notify/pwa-routes.ts).
// The server stamps VERSION with a hash of the current app shell, so every release changes these
// bytes, the browser installs the new worker, it takes over at once (skipWaiting + claim) and the
// old shell cache is deleted. Pages and bundles are network-first with the cache as the offline
// fallback, so an online user never runs stale code; /api/* is never cached.
const VERSION = '__DIBS_SW_VERSION__'
const CACHE = 'dibs-shell-' + VERSION
const SHELL = '/'

self.addEventListener('install', (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE)
      const res = await fetch(SHELL, { cache: 'reload' })
      if (res.ok) {
        const html = await res.clone().text()
        await cache.put(SHELL, res)
        // The shell's own assets (hashed bundle, styles, icons, manifest).
        const urls = [...html.matchAll(/(?:src|href)="([^"#]+)"/g)]
          .map((m) => new URL(m[1], self.location.origin))
          .filter((u) => u.origin === self.location.origin && !u.pathname.startsWith('/api/'))
          .map((u) => u.href)
        urls.push(new URL('/icons/icon-192.png', self.location.origin).href)
        await Promise.all(urls.map((u) => cache.add(u).catch(() => undefined)))
      }
      await self.skipWaiting()
    })(),
  )
})

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const key of await caches.keys()) if (key.startsWith('dibs-shell-') && key !== CACHE) await caches.delete(key)
      await self.clients.claim()
    })(),
  )
})

self.addEventListener('fetch', (event) => {
  const req = event.request
  if (req.method !== 'GET') return
  const url = new URL(req.url)
  if (url.origin !== self.location.origin || url.pathname.startsWith('/api/') || url.pathname === '/sw.js' || url.pathname.startsWith('/_bun/hmr')) return
  event.respondWith(
    (async () => {
      const cache = await caches.open(CACHE)
      try {
        const res = await fetch(req)
        // Every client route answers with the same shell: keep the freshest copy under '/'.
        if (res.ok && res.type === 'basic') {
          if (req.mode === 'navigate') {
            if ((res.headers.get('content-type') || '').includes('text/html')) await cache.put(SHELL, res.clone())
          } else await cache.put(req, res.clone())
        }
        return res
      } catch (err) {
        const hit = req.mode === 'navigate' ? await cache.match(SHELL) : await cache.match(req)
        if (hit) return hit
        throw err
      }
    })(),
  )
})

self.addEventListener('push', (event) => {
  let data = {}
  try {
    data = event.data ? event.data.json() : {}
  } catch {
    data = { body: event.data ? event.data.text() : '' }
  }
  event.waitUntil(
    self.registration.showNotification(data.title || 'New match', {
      body: data.body || '',
      tag: data.tag,
      icon: '/icons/icon-192.png',
      badge: '/icons/icon-192.png',
      // Claim / Open / Mark read (src/notify/dispatcher.ts PUSH_ACTIONS); browsers show the first two or three
      actions: Array.isArray(data.actions) ? data.actions : [],
      data: {
        url: data.url || '/dashboard',
        postUrl: data.postUrl || null,
        matchId: data.matchId || null,
        claimUrl: data.claimUrl || null,
        openUrl: data.openUrl || null,
        markReadUrl: data.markReadUrl || null,
      },
    }),
  )
})

/** Focuses an open Dibs tab and navigates it to `target`, else opens a new window. */
async function focusOrOpen(target) {
  const tabs = await self.clients.matchAll({ type: 'window', includeUncontrolled: true })
  for (const tab of tabs) {
    if (new URL(tab.url).origin === self.location.origin && 'focus' in tab) {
      await tab.focus()
      if ('navigate' in tab) await tab.navigate(target).catch(() => undefined)
      return
    }
  }
  await self.clients.openWindow(target)
}

/**
 * What a click does, by the button pressed (`action`, '' for the notification itself):
 *   claim     → the alert's claim link (/c/<token>: records the first claim, then the seller's message or reply page)
 *   open      → the alert's open link (/c/<token>: records the first open, then the post)
 *   mark-read → POSTs the signed mark-read link: the match is read without opening the app
 *   ''        → the match in the dashboard (an open Dibs tab is focused and navigated, else a new window).
 * On self so a browser test can drive it with a real notification (tests/e2e/claim.test.ts).
 */
self.dibsNotificationClick = async (notification, action) => {
  const data = notification.data || {}
  notification.close()
  if (action === 'mark-read' && data.markReadUrl) {
    await fetch(data.markReadUrl, { method: 'POST', credentials: 'omit' }).catch(() => undefined)
    return
  }
  if (action === 'claim' && data.claimUrl) return void (await self.clients.openWindow(data.claimUrl))
  if (action === 'open' && data.openUrl) return void (await self.clients.openWindow(data.openUrl))
  await focusOrOpen(new URL(data.url || '/dashboard', self.location.origin).href)
}

self.addEventListener('notificationclick', (event) => {
  event.waitUntil(self.dibsNotificationClick(event.notification, event.action || ''))
})
