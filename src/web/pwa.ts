// PWA files that must keep stable URLs (the bundler hashes everything it touches):
// GET /sw.js (no-cache, version-stamped, scope /) and GET /icons/* (named in the manifest).
import { Elysia } from 'elysia'
import type { AppShell } from './pages'
import { createHash } from 'node:crypto'
import swSource from '../../ui/sw.js' with { type: 'text' }
import icon192 from '../../ui/icons/icon-192.png' with { type: 'file' }
import icon512 from '../../ui/icons/icon-512.png' with { type: 'file' }
import maskable512 from '../../ui/icons/maskable-512.png' with { type: 'file' }
import appleTouch from '../../ui/icons/apple-touch-icon.png' with { type: 'file' }
import iconSvg from '../../ui/icon.svg' with { type: 'file' }

const ICONS: Record<string, { path: string; type: string }> = {
  'icon-192.png': { path: icon192, type: 'image/png' },
  'icon-512.png': { path: icon512, type: 'image/png' },
  'maskable-512.png': { path: maskable512, type: 'image/png' },
  'apple-touch-icon.png': { path: appleTouch, type: 'image/png' },
  'icon.svg': { path: iconSvg, type: 'image/svg+xml' },
}

const started = Date.now().toString(36)

/** The app shell's hash: changes with every build of the UI, so the worker's bytes change too. */
function shellVersion(shell: AppShell): string {
  return shell.html ? createHash('sha256').update(shell.html).digest('hex').slice(0, 16) : started
}

export const pwaRoutes = (shell: AppShell) =>
  new Elysia({ name: 'pwa' })
    .get(
      '/sw.js',
      () =>
        new Response(String(swSource).replace('__DIBS_SW_VERSION__', shellVersion(shell)), {
          headers: { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-cache', 'service-worker-allowed': '/' },
        }),
      { detail: { hide: true } },
    )
    .get(
      '/icons/:file',
      ({ params, set }) => {
        const icon = Object.hasOwn(ICONS, params.file) ? ICONS[params.file] : undefined
        if (!icon) {
          set.status = 404
          return 'Not found'
        }
        return new Response(Bun.file(icon.path), { headers: { 'content-type': icon.type, 'cache-control': 'public, max-age=86400' } })
      },
      { detail: { hide: true } },
    )
