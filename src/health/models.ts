// The health capability's HTTP answer models (Elysia `t`): what its routes return, as the OpenAPI document at /api/docs/json and the typed client see it.
import { t } from 'elysia'
import { nullable } from '../lib/models'

export const HealthzResponse = t.Object({
  status: t.String(),
  db: t.String(),
  storage: t.Union([t.Literal('full'), t.Literal('ok')]),
  lastScanAt: nullable(t.String()),
  lastScanAgeSeconds: nullable(t.Number()),
  source: nullable(t.String()),
  uptimeSeconds: t.Number(),
})
export const ReadyzResponse = t.Object({
  ready: t.Boolean(),
  failing: t.Array(t.String()),
  checks: t.Record(t.String(), t.Object({ ok: t.Boolean(), detail: t.String(), warn: t.Optional(t.Boolean()) })),
})
