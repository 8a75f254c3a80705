// createApp(ctx): the whole HTTP surface of Dibs. Every route plugin is .use()d here in order,
// errors are mapped once to {error: {code, message}}, and the UI's client routes are listed
// explicitly (src/web/pages.ts; no catch-all: it would shadow /api/*).
import { ingestRoutes } from './scanner/ingest-route'
import { MAX_BATCH_BYTES } from './sources/push'
import { Elysia } from 'elysia'
import { openapi } from '@elysiajs/openapi'
import { AppError, errorBody } from './lib/errors'
import { droppedFields } from './lib/models'
import { log } from './lib/log'
import { isStorageFull, noteStorageFull, STORAGE_FULL_MESSAGE } from './lib/storage'
import type { Deps } from './deps'
import type { Services } from './services'
import { healthRoutes, readyRoutes } from './health'
import { metricsRoutes } from './metrics/routes'
import { configRoutes } from './web/config'
import { assetResponse, pageResponse, pageRoutes, shellResponse, type AppShell } from './web/pages'
import { API_DOCS_STYLE_HASH, apiDocsRoutes } from './web/api-docs'
import { applySecurityHeaders, headerSets } from './web/security-headers'
import { pwaRoutes } from './web/pwa'
import { vendorRoutes } from './web/vendor'
import { notifyRoutes } from './notify'
import { authRoutes } from './auth'
import { tokenGate } from './auth/token-gate'
import { SESSION_COOKIE } from './auth/session'
import { tokenRoutes } from './auth/token-routes'
import { meRoutes } from './me'
import { realtimeRoutes } from './realtime'
import { termRoutes } from './terms'
import { feedRoutes } from './feeds'
import { matchRoutes } from './matches'
import { explainRoutes } from './explain'
import { postRoutes } from './forums'
import { relayRoutes } from './realtime/relay'
import { scannerTasks } from './scanner/delegate'
import { billingRoutes } from './billing'
import { adminRoutes } from './admin'
import { maintenanceGate } from './web/maintenance-mode'

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])

/** Paths that take cross-site POSTs by design (signed webhooks, RFC 8058 one-click unsubscribe). */
const ORIGIN_EXEMPT = [/^\/api\/billing\/webhook$/, /^\/api\/unsubscribe$/, /^\/api\/ingest\/[^/]+$/]

/** Route plugins get Deps plus the services they use (admin pages: all of them). */
export type AppDeps = Deps & Services

/**
 * `checkModels` (tests): a route whose answer has a field its response model lacks fails with 500
 * instead of losing the field (Elysia strips what the model does not name; src/lib/models.ts).
 */
export function createApp(deps: AppDeps, shell: AppShell = { html: null }, checks: { checkModels?: boolean } = {}) {
  const { config } = deps
  const pages = pageRoutes(config.productSlug)
  // Pages and assets are Bun's own routes only in development (HMR); see src/web/pages.ts.
  const bunRoutes = config.development ? (pages.routes as never) : undefined
  // Computed per request: the shell's inline-script hashes are known only after the server started.
  const headersFor = headerSets(config, () => shell.scriptHashes, { '/api/docs': { styleHashes: [API_DOCS_STYLE_HASH] } })

  const bearerRequest = tokenGate(deps)
  let readSpec = async (): Promise<Record<string, never>> => ({})
  const app = new Elysia({
    name: 'dibs',
    serve: { development: config.development, maxRequestBodySize: Math.max(config.maxBodyBytes * 16, MAX_BATCH_BYTES * 2), routes: bunRoutes },
  })
    // Security headers and API no-store on every response (src/web/security-headers.ts).
    .derive({ as: 'global' }, ({ set, path }) => {
      applySecurityHeaders(set.headers, path, headersFor(path))
      return {}
    })
    .use(
      openapi({
        path: '/api/docs',
        specPath: '/api/docs/json',
        provider: null, // the page is ours (src/web/api-docs.ts): no CDN script at run time
        exclude: { staticFile: false }, // a path with a dot is not skipped (the feeds: /feeds/<secret>/matches.atom); assets are hidden one by one
        documentation: {
          servers: [{ url: config.appUrl }],
          // Every operation needs a session or a token unless it says `security: []` (public) itself.
          components: {
            securitySchemes: {
              session: { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE, description: 'set by POST /api/auth/login' },
              token: { type: 'http', scheme: 'bearer', description: 'a personal access token (POST /api/tokens); /metrics: METRICS_TOKEN' },
            },
          },
          security: [{ session: [] }, { token: [] }],
          info: {
            title: `${config.appName} API`,
            version: '0.1.0',
            description:
              'JSON API of Dibs. Errors are {error: {code, message}}. Session: HttpOnly cookie set by /api/auth/login; scripts: Authorization: Bearer <personal access token> (Settings → Account, POST /api/tokens).',
          },
        },
      }),
    )
    // Request logging with timing.
    .derive({ as: 'global' }, () => ({ startedAt: performance.now() }))
    .onAfterResponse({ as: 'global' }, ({ request, set, startedAt, path, route }) => {
      const elapsed = performance.now() - (startedAt ?? performance.now())
      const ms = elapsed.toFixed(1)
      const fields = { status: set.status ?? 200, ms }
      deps.metrics.http(request.method, route || 'unmatched', Number(set.status ?? 200), elapsed / 1000) // the route pattern: bounded labels
      // Health checks and the admin log tail's own polling only at debug level.
      if (path === '/healthz' || path === '/api/admin/logs/app') log.debug(`${request.method} ${path}`, fields)
      else log.info(`${request.method} ${path}`, fields)
    })
    // Oversize bodies are refused before parsing, by the bytes read: a declared Content-Length
    // (Bun holds the body to it) is judged at once, a body without one (chunked) is counted as it
    // arrives. (Not onRequest: a request-level hook would switch off Bun's static routes that serve
    // the bundled UI.)
    .onParse({ as: 'global' }, ({ request, path }) => assertBodyWithin(request, path.startsWith('/api/ingest/') ? MAX_BATCH_BYTES : config.maxBodyBytes))
    // Personal access tokens (src/auth/token-gate.ts): scope, life and rate limit of a Bearer request.
    // State-changing API requests must come from our own origin (CSRF defence beside SameSite); a
    // Bearer request uses no cookie, so it skips that check.
    .onBeforeHandle({ as: 'global' }, async ({ request }) => {
      const path = new URL(request.url).pathname
      if (!path.startsWith('/api/') || ORIGIN_EXEMPT.some((re) => re.test(path))) return
      if (await bearerRequest(request, path)) return
      if (!STATE_CHANGING.has(request.method)) return
      const origin = request.headers.get('origin') ?? refererOrigin(request.headers.get('referer'))
      const allowedOrigin = new URL(config.appUrl).origin
      if ((origin !== null && origin !== allowedOrigin) || (origin === null && request.headers.get('sec-fetch-site') === 'cross-site'))
        throw new AppError(403, 'BAD_ORIGIN', 'Cross-site request refused.')
    })
    // Maintenance mode: signed-in non-admins get 503 MAINTENANCE from the API (src/web/maintenance-mode.ts).
    .onBeforeHandle({ as: 'global' }, ({ request, set }) => maintenanceGate(deps, request, set.headers as Record<string, string>))
    .onError({ as: 'global' }, async ({ error: raw, code, set, request }) => {
      const path = new URL(request.url).pathname
      applySecurityHeaders(set.headers, path, headersFor(path))
      // Errors thrown from a parse hook arrive wrapped in Elysia's ParseError.
      const error = code === 'PARSE' && (raw as Error).cause instanceof AppError ? ((raw as Error).cause as AppError) : raw
      if (error instanceof AppError) {
        set.status = error.status
        if (error.status === 429 && typeof error.details?.retryAfter === 'number') set.headers['retry-after'] = String(error.details.retryAfter)
        if (error.cause) log.warn(`${request.method} ${new URL(request.url).pathname}: ${error.code}`, { cause: String(error.cause) })
        return errorBody(error.code, error.message, error.details)
      }
      if (isStorageFull(error)) {
        noteStorageFull(deps.db, Date.now(), error) // /healthz reports it
        set.status = 503
        return errorBody('STORAGE_FULL', STORAGE_FULL_MESSAGE)
      }
      switch (code) {
        case 'VALIDATION': {
          // An answer that breaks its route's response model is our bug, not the caller's.
          if ((error as { type?: string }).type === 'response') {
            set.status = 500
            log.error(`${request.method} ${path}: the answer does not fit its response model`, { error: String((error as Error).message) })
            return errorBody('INTERNAL', 'Something went wrong. Please try again.')
          }
          set.status = 400
          const first = (error as { all?: { summary?: string; message?: string; path?: string }[] }).all?.[0]
          const field = first?.path ? first.path.replace(/^\//, '') : null
          const message = first?.summary ?? first?.message ?? 'Invalid request.'
          return errorBody('VALIDATION', field ? `${field}: ${message}` : message)
        }
        case 'PARSE':
          set.status = 400
          return errorBody('BAD_BODY', 'The request body could not be read (expected JSON).')
        case 'NOT_FOUND': {
          const asset = await assetResponse(shell, request)
          if (asset !== null) {
            set.status = 200
            return asset
          }
          const page = shellResponse(shell, pages.paths, request)
          set.status = page?.status ?? 404
          return page ?? errorBody('NOT_FOUND', 'No such route.')
        }
        case 'INTERNAL_SERVER_ERROR':
        case 'INVALID_COOKIE_SIGNATURE':
        case 'INVALID_FILE_TYPE':
        case 'UNKNOWN':
        default: {
          const status = typeof set.status === 'number' && set.status >= 400 ? set.status : 500
          set.status = status
          if (status >= 500) log.error(`${request.method} ${new URL(request.url).pathname} failed`, { error: String(error) })
          return errorBody(
            status === 413 ? 'PAYLOAD_TOO_LARGE' : 'INTERNAL',
            status >= 500 ? 'Something went wrong. Please try again.' : String((error as Error).message),
          )
        }
      }
    })
    // Tests only (no hook otherwise): an answer with a field its model does not name fails loudly.
    .use((a) =>
      checks.checkModels
        ? a.onAfterHandle({ as: 'global' }, ({ request, route, responseValue, set }) => {
            if (responseValue instanceof Response) return
            const hooks = app.routes.find((r) => r.method === request.method && r.path === route)?.hooks as { response?: Record<number, unknown> } | undefined
            const model = hooks?.response?.[typeof set.status === 'number' ? set.status : 200]
            if (!model || typeof model !== 'object') return
            const dropped = droppedFields(model, responseValue)
            if (dropped.length > 0) throw new Error(`${request.method} ${route}: the response model lacks ${dropped.slice(0, 5).join(', ')}`)
          })
        : a,
    )
    // --- routes, in order -------------------------------------------------------------
    .use(healthRoutes(deps))
    .use(readyRoutes(deps))
    .use(metricsRoutes(deps))
    .use(configRoutes(deps))
    .use(authRoutes(deps))
    .use(tokenRoutes(deps))
    .use(meRoutes(deps))
    .use(realtimeRoutes(deps, deps.hub))
    .use(termRoutes(deps))
    .use(matchRoutes(deps))
    .use(feedRoutes(deps))
    .use(explainRoutes(deps))
    .use(postRoutes(deps))
    .use(ingestRoutes(deps))
    .use(relayRoutes(deps, scannerTasks(deps)))
    .use(notifyRoutes(deps))
    .use(pwaRoutes(shell))
    .use(vendorRoutes())
    .use(apiDocsRoutes(deps, () => readSpec()))
    .use(billingRoutes(deps))
    .use(adminRoutes(deps))
    // --- client pages (production; src/web/pages.ts) ----------------------------------------
    .use((a) => {
      if (bunRoutes === undefined) for (const path of pages.paths) a.get(path, () => pageResponse(shell), { detail: { hide: true } })
      return a
    })
    // --- unknown /api/* answers JSON 404 -----------------------------------------------
    .all(
      '/api/*',
      ({ set }) => {
        set.status = 404
        return errorBody('NOT_FOUND', 'No such API route.')
      },
      { detail: { hide: true } },
    )

  const handle = (r: Request) => app.handle(r)
  readSpec = async () => (await handle(new Request(new URL('/api/docs/json', config.appUrl)))).json()
  return app
}

const tooLarge = (max: number) => new AppError(413, 'PAYLOAD_TOO_LARGE', `Request body is larger than ${max} bytes.`)

/**
 * Throws 413 for a body over `max` bytes. Without Content-Length the bytes of a copy of the body
 * are counted as they arrive, and reading stops at the first byte over; the parser then reads the
 * original (buffered meanwhile up to that point, never past Bun's maxRequestBodySize).
 */
async function assertBodyWithin(request: Request, max: number): Promise<void> {
  const declared = request.headers.get('content-length')
  if (declared !== null) {
    if (Number(declared) > max) throw tooLarge(max)
    return
  }
  const reader = request.clone().body?.getReader()
  if (!reader) return
  let read = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) return
    read += value.byteLength
    if (read > max) {
      void reader.cancel().catch(() => {}) // not awaited: cancelling one branch of a clone waits for the other
      throw tooLarge(max)
    }
  }
}

function refererOrigin(referer: string | null): string | null {
  if (!referer) return null
  try {
    return new URL(referer).origin
  } catch {
    return null
  }
}

export type App = ReturnType<typeof createApp>
