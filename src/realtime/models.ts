// The realtime capability's HTTP answer models (Elysia `t`): what its routes return, as the OpenAPI document at /api/docs/json and the typed client see it.
import { t } from 'elysia'

export const InternalEventsResponse = t.Object({ emitted: t.Number() })
export const InternalRunResponse = t.Object({ result: t.Unknown() })
