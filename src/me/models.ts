// The me capability's HTTP answer models (Elysia `t`): what its routes return, as the OpenAPI document at /api/docs/json and the typed client see it.
import { t } from 'elysia'
import { PublicUserModel } from '../auth/models'
import { AccessInfoModel } from '../access/models'

export const MeGetResponse = t.Object({ user: PublicUserModel, access: AccessInfoModel, session: t.Object({ secondFactor: t.Boolean() }) })
export const Me2faPostResponse = t.Object({ secret: t.String(), otpauthUrl: t.String(), qrSvg: t.String() })
export const Me2faEnableResponse = t.Object({ recoveryCodes: t.Array(t.String()), message: t.String() })
