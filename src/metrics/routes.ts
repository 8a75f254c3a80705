// GET /metrics (Prometheus text format; the alert latency percentiles are GET /api/admin/latency, src/admin/latency.ts).
// /metrics answers a bearer METRICS_TOKEN (compared in constant time) or an admin session; without
// METRICS_TOKEN only admin sessions can read it. Anything else: 401 (no or wrong credentials) or
// 403 (signed in, not an admin).
import { Elysia } from 'elysia'
import { adminSession, authPlugin } from '../auth/plugin'
import type { Deps } from '../deps'
import { unauthorized } from '../lib/errors'
import { hashToken, safeEqual } from '../lib/tokens'
import type { Metrics } from './registry'
import { otherResponses } from '../lib/models'

/** A bearer token equal to METRICS_TOKEN: both are hashed first, so the comparison takes the same time whatever their lengths. */
export function bearerMatches(header: string | null, token: string | null): boolean {
  const m = /^Bearer\s+(\S+)$/i.exec(header ?? '')
  return token !== null && m !== null && safeEqual(hashToken(m[1]!), hashToken(token))
}

export const metricsRoutes = (deps: Deps & { metrics: Metrics }) =>
  new Elysia({ name: 'metrics' }).use(authPlugin(deps)).get(
    '/metrics',
    async ({ request, set }) => {
      const auth = request.headers.get('authorization')
      if (auth !== null) {
        if (!bearerMatches(auth, deps.config.metricsToken)) {
          set.headers['www-authenticate'] = 'Bearer realm="metrics"'
          throw unauthorized(
            deps.config.metricsToken === null ? 'METRICS_TOKEN is not set: only an admin session can read /metrics.' : 'Wrong metrics token.',
            'BAD_TOKEN',
          )
        }
      } else await adminSession(deps, request)
      set.headers['content-type'] = deps.metrics.contentType
      return deps.metrics.scrape()
    },
    {
      detail: {
        summary: 'Prometheus metrics (text format): Authorization: Bearer METRICS_TOKEN, or an admin session',
        tags: ['system'],
        responses: otherResponses({ 200: { description: 'Prometheus text exposition format', type: 'text/plain' } }, 401, 403),
      },
    },
  )
