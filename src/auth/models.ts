// The auth capability's HTTP answer models (Elysia `t`): what its routes return, as the OpenAPI document at /api/docs/json and the typed client see it.
import { t } from 'elysia'
import { AccessInfoModel } from '../access/models'
import { nullable } from '../lib/models'

export const PublicUserModel = t.Object({
  id: t.Number(),
  email: t.String(),
  name: t.String(),
  emailConfirmedAt: nullable(t.String()),
  createdAt: t.String(),
  hasPassword: t.Boolean(),
  providers: t.Array(t.String()),
  twoFactorEnabled: t.Boolean(),
  factors: t.Array(t.Object({ id: t.Number(), factor_type: t.Literal('totp'), status: t.Union([t.Literal('verified'), t.Literal('unverified')]) })),
})
export const AuthSignupResponse = t.Object({ ok: t.Boolean(), email: t.String(), message: t.String() })
export const AuthLoginResponse = t.Object({ user: PublicUserModel, access: nullable(AccessInfoModel) })
export const AuthLogoutResponse = t.Object({ ok: t.Boolean(), title: t.String(), message: t.String() })
export const UserResponse = t.Object({ user: PublicUserModel })
export const AuthSessionsResponse = t.Object({
  sessions: t.Array(
    t.Object({
      id: t.String(),
      createdAt: t.String(),
      lastSeenAt: t.String(),
      expiresAt: t.String(),
      userAgent: nullable(t.String()),
      ip: nullable(t.String()),
      current: t.Boolean(),
    }),
  ),
})
export const OkResponse = t.Object({ ok: t.Boolean() })
export const AuthResendResponse = t.Object({ title: t.Literal('Confirmation email resent'), message: t.Literal('Please check your inbox and spam folder.') })
export const AuthForgotResponse = t.Object({ message: t.String() })
export const OkMessageResponse = t.Object({ ok: t.Boolean(), message: t.String() })
