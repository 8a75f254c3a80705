// The OpenAPI document is complete (issue 28 §4): every route the app registers is in /api/docs/json
// with its answers — a success response (a model, or for a redirect, page, feed or download the
// content type it answers) and, when it takes a body, the 400 error model. The few routes that cannot
// be described are listed below, each with its reason. (That a model names every field a handler
// returns is checked by every API test: makeApp runs createApp with checkModels.)
import { describe, expect, test } from 'bun:test'
import { pageRoutes } from '../../src/web/pages'
import { call, makeApp, makeDeps } from '../helpers'

type Operation = { responses?: Record<string, { content?: Record<string, { schema?: unknown }> }>; parameters?: unknown[]; requestBody?: unknown }

/** Routes with no response in the document, and why. */
const NOT_DESCRIBED: Record<string, string> = {
  'WS /api/ws': 'a WebSocket: OpenAPI 3 has no way to describe a socket (its messages are SocketMessages in src/contract/events.ts, docs/api.md)',
  'ALL /api/*': 'the JSON 404 for an unknown /api path: not an operation',
  'GET /api/docs': 'the page that shows this document (HTML, hidden from it)',
  'GET /api/docs/json': 'this document itself',
  'POST /api/internal/events': 'the scanner → server relay (HMAC-signed, between two Dibs processes; docs/api.md), hidden from the public document',
  'POST /api/internal/run': 'the server → scanner relay (HMAC-signed, between two Dibs processes; docs/api.md), hidden from the public document',
  'GET /sw.js': 'a static asset of the web app (the service worker), not API',
  'GET /icons/:file': 'static assets of the web app (PWA icons), not API',
}
/** The web app's pages and vendored scripts: HTML and static files, not API (docs/api.md lists them). */
const isAsset = (path: string) => path.startsWith('/vendor/') || pageRoutes('x').paths.has(path) || pageRoutes('gafs').paths.has(path)

async function document() {
  const deps = await makeDeps()
  try {
    const app = makeApp(deps)
    const spec = (await call(app, 'GET', '/api/docs/json')).body as { paths: Record<string, Record<string, Operation>> }
    const routes = app.routes.filter((r) => r.method !== 'HEAD' && r.method !== 'OPTIONS').map((r) => ({ method: r.method, path: r.path }))
    return { spec, routes, slug: deps.config.productSlug }
  } finally {
    deps.close()
  }
}

describe('the OpenAPI document is complete', () => {
  test('every route has its answers in /api/docs/json, or a reason on the list', async () => {
    const { spec, routes, slug } = await document()
    const operation = (method: string, path: string) => spec.paths[path.replace(/:(\w+)/g, '{$1}')]?.[method.toLowerCase()]
    const missing: string[] = []
    for (const { method, path } of routes) {
      const key = `${method} ${path}`
      const allMethods = `ALL ${path}`
      if (key in NOT_DESCRIBED || allMethods in NOT_DESCRIBED || isAsset(path) || pageRoutes(slug).paths.has(path)) continue
      const op = operation(method, path)
      const statuses = Object.keys(op?.responses ?? {})
      if (!op) missing.push(`${key}: not in the document`)
      else if (!statuses.some((s) => /^[23]\d\d$/.test(s))) missing.push(`${key}: no success response`)
      else if (op.requestBody && !statuses.includes('400')) missing.push(`${key}: takes a body but no 400 error`)
    }
    expect(missing).toEqual([])
  })

  test('every JSON error answer in the document is the one error model {error: {code, message}}', async () => {
    const { spec } = await document()
    const wrong: string[] = []
    for (const [path, ops] of Object.entries(spec.paths))
      for (const [method, op] of Object.entries(ops))
        for (const [status, r] of Object.entries(op.responses ?? {})) {
          const json = r.content?.['application/json']?.schema as { properties?: { error?: { properties?: Record<string, unknown> } } } | undefined
          // Only JSON answers (an alert link's 404 is a page); /api/unsubscribe answers {status, code} (RFC 8058 one-click).
          if (!/^4\d\d$/.test(status) || !r.content?.['application/json'] || path === '/api/unsubscribe') continue
          if (!json?.properties?.error?.properties?.code || !json.properties.error.properties.message) wrong.push(`${method.toUpperCase()} ${path} ${status}`)
        }
    expect(wrong).toEqual([])
  })

  test('the allowlist names only routes that exist', async () => {
    const { routes } = await document()
    const keys = new Set(routes.flatMap((r) => [`${r.method} ${r.path}`, `ALL ${r.path}`]))
    expect(Object.keys(NOT_DESCRIBED).filter((k) => !keys.has(k))).toEqual([])
  })
})
