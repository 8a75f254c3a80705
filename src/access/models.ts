// The access capability's HTTP answer models (Elysia `t`): what its routes return, as the OpenAPI document at /api/docs/json and the typed client see it.
import { t } from 'elysia'
import { nullable } from '../lib/models'
import { CategoryModel } from '../contract/models'

export const PlanIdModel = t.Union([t.Literal('gd'), t.Literal('product'), t.Literal('product+gd')])
export const RoleModel = t.Union([
  t.Literal('admin'),
  t.Literal('app_trial'),
  t.Literal('gd'),
  t.Literal('product'),
  t.Literal('product+gd'),
  t.Literal('trial_expired'),
])
export const ForumModel = t.Union([t.Literal('gd'), t.Literal('product')])
export const OverlayContextModel = t.Union([
  t.Literal('app_trial_expired'),
  t.Literal('default'),
  t.Literal('gifted_expired'),
  t.Literal('inactive_subscription'),
])
export const AccessInfoModel = t.Object({
  userRole: t.Union([RoleModel, t.Literal('none')], { description: "'none': an account without a role yet (src/access/state.ts)" }),
  hasAccess: t.Boolean(),
  accessExpiresAt: nullable(t.String()),
  stripeCustomerId: nullable(t.String()),
  subscriptionStatus: nullable(t.String()),
  daysLeft: nullable(t.Number()),
  statusText: t.String(),
  forums: t.Array(ForumModel),
  categories: t.Array(CategoryModel),
  termLimit: t.Number(),
  featureRank: t.Number(),
  overlayContext: OverlayContextModel,
})
export const GateModel = t.Object({ allowed: t.Boolean(), message: nullable(t.String()) })
