// The billing capability's HTTP answer models (Elysia `t`): what its routes return, as the OpenAPI document at /api/docs/json and the typed client see it.
import { t } from 'elysia'
import { AccessInfoModel, PlanIdModel } from '../access/models'
import { nullable } from '../lib/models'

export const SubscriptionViewModel = t.Object({
  billingEnabled: t.Boolean(),
  plan: nullable(PlanIdModel),
  planName: nullable(t.String()),
  status: nullable(t.String()),
  statusText: t.String(),
  renewsAt: nullable(t.String()),
  endsAt: nullable(t.String()),
  cancelAtPeriodEnd: t.Boolean(),
  nextAmountCents: nullable(t.Number()),
  hasCustomer: t.Boolean(),
})
export const WebhookResultModel = t.Object({ received: t.Literal(true), duplicate: t.Optional(t.Literal(true)), ignored: t.Optional(t.Literal(true)) })
export const BillingCheckoutResponse = t.Object({ client_secret: t.String() })
export const BillingPortalResponse = t.Object({ portalUrl: t.String() })
export const BillingSubscriptionResponse = SubscriptionViewModel
export const BillingRefreshResponse = t.Object({ access: AccessInfoModel, subscription: SubscriptionViewModel })
export const BillingWebhookResponse = WebhookResultModel
