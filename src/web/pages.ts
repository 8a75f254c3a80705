// The React app's pages. Bun builds the UI from its HTML import (ui/index.html) only when the
// import is a `routes` entry of a Bun server, and it answers those routes (the page and every
// hashed asset) itself: no hook of ours runs, so no security header could be added. Therefore:
//   - production: a private server on 127.0.0.1 (random port) holds the HTML import and builds the
//     bundle; the public app answers every client route of ui/routes.ts with the captured shell,
//     and proxies asset requests (cached in memory) to the private server, all with our headers;
//   - development (`bun run dev`): the HTML import sits on the public server for Bun's HMR.
// No catch-all route (it would shadow /api/*): unknown GETs reach the NOT_FOUND handler, which
// tries an asset, then the shell (404 with the app's not-found page).
import index from '../../ui/index.html'
import { clientRoutes } from '../../ui/routes'
import { inlineHashes } from './security-headers'

/** The bundled index.html and where its assets come from; filled in by src/server.ts after start. */
export type AppShell = {
  html: string | null
  /** origin of the private bundle server (production); null: assets come from the public server's own routes */
  assets?: string | null
  /** CSP hashes of the shell's inline scripts (the theme applied before first paint) */
  scriptHashes?: string[]
}

export function pageRoutes(productSlug: string) {
  const paths = new Set(clientRoutes(productSlug))
  return { paths, routes: Object.fromEntries([...paths].map((path) => [path, index])) }
}

export type UiBundle = { origin: string; stop(): void }

/** Starts the private loopback server that builds and serves the bundled UI. */
export function startUiBundle(): UiBundle {
  const server = Bun.serve({ port: 0, hostname: '127.0.0.1', development: false, routes: { '/': index }, fetch: () => new Response(null, { status: 404 }) })
  return { origin: `http://127.0.0.1:${server.port}`, stop: () => void server.stop(true) }
}

/** Fetches the shell from `origin` (the private bundle server, or the public one in development). */
export async function captureShell(shell: AppShell, origin: string, path = '/') {
  shell.html = await (await fetch(origin + path)).text()
  shell.scriptHashes = inlineHashes(shell.html).scriptHashes
}

function shellPage(shell: AppShell, status: number): Response {
  return new Response(shell.html, { status, headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache' } })
}

/** A client route's page (production): the captured shell. */
export function pageResponse(shell: AppShell): Response {
  if (shell.html === null) return new Response('The app is starting. Please reload in a moment.', { status: 503, headers: { 'retry-after': '1' } })
  return shellPage(shell, 200)
}

/**
 * A browser asking for an unknown page gets the app, which shows its not-found page (404).
 * Bun's HTML routes drop trailing slashes, so '/dashboard/' (a spec route) is served here (200).
 * Anything else (API, non-browser) → null.
 */
export function shellResponse(shell: AppShell, paths: Set<string>, request: Request): Response | null {
  const path = new URL(request.url).pathname
  if (request.method !== 'GET' || path.startsWith('/api/') || shell.html === null) return null
  const known = path.length > 1 && path.endsWith('/') && paths.has(path.replace(/\/+$/, ''))
  if (!known && !request.headers.get('accept')?.includes('text/html')) return null
  return shellPage(shell, known ? 200 : 404)
}

type Cached = { status: number; headers: [string, string][]; body: ArrayBuffer }
const assetCache = new Map<string, Cached>()
const ASSET_CACHE_MAX = 500

/** A bundled asset (hashed JS, CSS, images, manifest) from the private bundle server, or null. */
export async function assetResponse(shell: AppShell, request: Request): Promise<Response | null> {
  const url = new URL(request.url)
  if (!shell.assets || (request.method !== 'GET' && request.method !== 'HEAD') || url.pathname.startsWith('/api/') || url.pathname === '/') return null
  const key = `${shell.assets}${url.pathname}`
  let hit = assetCache.get(key)
  if (hit === undefined) {
    let res: Response
    try {
      res = await fetch(key, { signal: AbortSignal.timeout(10_000) })
    } catch {
      return null
    }
    if (res.status !== 200 || (res.headers.get('content-type') ?? '').startsWith('text/html')) return null
    const keep = ['content-type', 'etag', 'cache-control', 'last-modified']
    hit = { status: 200, headers: [...res.headers].filter(([k]) => keep.includes(k.toLowerCase())), body: await res.arrayBuffer() }
    if (assetCache.size < ASSET_CACHE_MAX) assetCache.set(key, hit)
  }
  return new Response(request.method === 'HEAD' ? null : hit.body, { status: hit.status, headers: hit.headers })
}
