// The React app's pages: every client route of ui/routes.ts handed to Bun.serve as HTML-import
// routes (no catch-all: it would shadow /api/*; Elysia's own static mapping is switched off by
// global hooks), and the app shell that answers other page requests.
import index from '../../ui/index.html'
import { clientRoutes } from '../../ui/routes'

/** The bundled index.html as text, captured by the server after it starts (src/server.ts). */
export type AppShell = { html: string | null }

export function pageRoutes(productSlug: string) {
  const paths = new Set(clientRoutes(productSlug))
  return { paths, routes: Object.fromEntries([...paths].map((path) => [path, index])) }
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
  return new Response(shell.html, { status: known ? 200 : 404, headers: { 'content-type': 'text/html; charset=utf-8' } })
}
