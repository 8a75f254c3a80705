// The web capability's HTTP answer models (Elysia `t`): what its routes return, as the OpenAPI document at /api/docs/json and the typed client see it.
import { t } from 'elysia'
import { PlanIdModel } from '../access/models'
import { nullable } from '../lib/models'

export const ConfigResponse = t.Object({
  appName: t.String(),
  productName: t.String(),
  productSlug: t.String(),
  forums: t.Object({ accessories: t.String(), deals: t.String() }),
  dealsLabel: t.String(),
  googleEnabled: t.Boolean(),
  billingEnabled: t.Boolean(),
  stripePublishableKey: nullable(t.String()),
  stripeJsUrl: nullable(t.String()),
  freePlan: nullable(PlanIdModel),
  demo: t.Boolean(),
  supportEmail: nullable(t.String()),
  requireAdmin2fa: t.Boolean(),
  scanIntervalSeconds: t.Number(),
})
