// The React app's pages. Bun builds the UI from its HTML import (ui/index.html) only when the
// import is a `routes` entry of a Bun server, and it answers those routes (the page and every
// hashed asset) itself: no hook of ours runs, so no security header could be added. Therefore:
//   - production: a private server on 127.0.0.1 (random port) holds the HTML import and builds the
//     bundle; the public app answers every client route of ui/routes.ts with the captured shell,
//     and proxies asset requests (cached in memory) to the private server, all with our headers;
//   - development (`bun run dev`): the HTML import sits on the public server for Bun's HMR.
// No catch-all route (it would shadow /api/*): unknown GETs reach the NOT_FOUND handler, which
// tries an asset, then the shell (404 with the app's not-found page).
import { brotliCompressSync, constants as zlib } from 'node:zlib'
import index from '../../ui/index.html'
import { clientRoutes } from '../../ui/routes'
import { inlineHashes } from './security-headers'
import { escapeHtml } from '../lib/html'

/** The bundled index.html and where its assets come from; filled in by src/server.ts after start. */
export type AppShell = {
  html: string | null
  /** origin of the private bundle server (production); null: assets come from the public server's own routes */
  assets?: string | null
  /** CSP hashes of the shell's inline scripts (the theme applied before first paint) */
  scriptHashes?: string[]
  /** APP_NAME: the shell's <title> and the PWA manifest's name follow it */
  appName?: string
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
  const html = await (await fetch(origin + path)).text()
  shell.html = shell.appName ? html.replace(/<title>[^<]*<\/title>/, `<title>${escapeHtml(shell.appName)}</title>`) : html
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

export type Encoding = 'br' | 'gzip' | 'identity'
type Cached = { headers: Record<string, string>; bodies: Partial<Record<Encoding, Uint8Array>>; compressible: boolean }
const assetCache = new Map<string, Cached>()
/** Paths the bundle does not have (bots probing /wp-login.php …): answered without asking it again. */
const notAssets = new Set<string>()
const ASSET_CACHE_MAX = 500
const COMPRESSIBLE = /^(text\/|application\/(javascript|json|manifest\+json|xml)|image\/svg\+xml)/

/** The best encoding the client accepts: brotli, then gzip (RFC 9110 §12.5.3, q=0 refuses). */
export function pickEncoding(acceptEncoding: string | null): Encoding {
  const accepted = new Map<string, number>()
  for (const part of (acceptEncoding ?? '').toLowerCase().split(',')) {
    const [name, ...params] = part.trim().split(';')
    const q = params.map((p) => /^\s*q=([\d.]+)/.exec(p)?.[1]).find(Boolean)
    if (name) accepted.set(name, q === undefined ? 1 : Number(q))
  }
  const ok = (name: string) => (accepted.get(name) ?? accepted.get('*') ?? 0) > 0
  return ok('br') ? 'br' : ok('gzip') ? 'gzip' : 'identity'
}

/** A body in one content encoding (brotli at its best level: made once per asset and kept). */
export function encode(body: Uint8Array, encoding: Encoding): Uint8Array {
  if (encoding === 'br') return brotliCompressSync(body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: body.byteLength } })
  if (encoding === 'gzip') return Bun.gzipSync(body as Uint8Array<ArrayBuffer>, { level: 9 })
  return body
}

/** The PWA manifest names the app after APP_NAME. */
function renameManifest(body: Uint8Array, appName: string): Uint8Array {
  try {
    const manifest = JSON.parse(new TextDecoder().decode(body)) as Record<string, unknown>
    manifest.name = appName
    manifest.short_name = appName.slice(0, 12)
    return new TextEncoder().encode(JSON.stringify(manifest, null, 2))
  } catch {
    return body
  }
}

/**
 * A bundled asset (hashed JS, CSS, images, manifest) from the private bundle server, or null.
 * Text assets are sent brotli- or gzip-compressed as the client accepts (each encoding made once
 * and kept); hashed names keep Bun's year-long immutable caching.
 */
export async function assetResponse(shell: AppShell, request: Request): Promise<Response | null> {
  const url = new URL(request.url)
  if (!shell.assets || (request.method !== 'GET' && request.method !== 'HEAD') || url.pathname.startsWith('/api/') || url.pathname === '/') return null
  const key = `${shell.assets}${url.pathname}`
  if (notAssets.has(key)) return null
  let hit = assetCache.get(key)
  if (hit === undefined) {
    let res: Response
    try {
      res = await fetch(key, { signal: AbortSignal.timeout(10_000), headers: { 'accept-encoding': 'identity' } })
    } catch {
      return null
    }
    const type = res.headers.get('content-type') ?? ''
    if (res.status !== 200 || type.startsWith('text/html')) {
      if (res.status === 404 || type.startsWith('text/html')) {
        if (notAssets.size >= 5_000) notAssets.clear()
        notAssets.add(key)
      }
      return null
    }
    const headers: Record<string, string> = {}
    for (const k of ['content-type', 'etag', 'cache-control', 'last-modified']) {
      const v = res.headers.get(k)
      if (v !== null) headers[k] = v
    }
    let body: Uint8Array = new Uint8Array(await res.arrayBuffer())
    if (type.startsWith('application/manifest+json') && shell.appName) {
      body = renameManifest(body, shell.appName)
      headers['cache-control'] = 'no-cache' // APP_NAME may change under the same hashed name
    }
    hit = { headers, bodies: { identity: body }, compressible: COMPRESSIBLE.test(type) && body.byteLength > 512 }
    if (assetCache.size < ASSET_CACHE_MAX) assetCache.set(key, hit)
  }
  const encoding = hit.compressible ? pickEncoding(request.headers.get('accept-encoding')) : 'identity'
  const body = (hit.bodies[encoding] ??= encode(hit.bodies.identity!, encoding))
  const headers: Record<string, string> = { ...hit.headers }
  if (hit.compressible) headers.vary = 'accept-encoding'
  if (encoding !== 'identity') {
    headers['content-encoding'] = encoding
    if (headers.etag) headers.etag = headers.etag.replace(/"$/, `-${encoding}"`)
  }
  return new Response(request.method === 'HEAD' ? null : (body as Uint8Array<ArrayBuffer>), { status: 200, headers })
}

/** Prepares the shell's assets (fetched, brotli and gzip made) so the first visitor does not wait. */
export async function warmAssets(shell: AppShell, origin: string) {
  for (const m of (shell.html ?? '').matchAll(/(?:src|href)="(\/[^"]+)"/g))
    for (const encoding of ['br', 'gzip']) await assetResponse(shell, new Request(origin + m[1], { headers: { 'accept-encoding': encoding } }))
}
