// The metrics capability's HTTP answer models (Elysia `t`): what its routes return, as the OpenAPI document at /api/docs/json and the typed client see it.
import { t } from 'elysia'
import { nullable } from '../lib/models'

export const LatencyWindowModel = t.Union([t.Literal('1h'), t.Literal('24h'), t.Literal('7d')])
export const StageFiguresModel = t.Object({
  key: t.String(),
  label: t.String(),
  count: t.Number(),
  p50Ms: nullable(t.Number()),
  p95Ms: nullable(t.Number()),
  p99Ms: nullable(t.Number()),
})
export const LatencyReportModel = t.Object({
  window: LatencyWindowModel,
  since: t.String(),
  alerts: t.Number(),
  stages: t.Array(StageFiguresModel),
  endToEnd: t.Array(StageFiguresModel),
  postToClaim: t.Array(StageFiguresModel),
})
