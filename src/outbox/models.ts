// The outbox capability's HTTP answer models (Elysia `t`): what its routes return, as the OpenAPI document at /api/docs/json and the typed client see it.
import { t } from 'elysia'

export const FieldSpecModel = t.Object({
  name: t.String(),
  label: t.String(),
  type: t.Union([t.Literal('url'), t.Literal('text'), t.Literal('secret'), t.Literal('textarea'), t.Literal('select')]),
  required: t.Boolean(),
  placeholder: t.Optional(t.String()),
  help: t.Optional(t.String()),
  options: t.Optional(t.Array(t.Object({ value: t.String(), label: t.String() }))),
})
export const HttpRequestModel = t.Object({
  method: t.Union([t.Literal('POST'), t.Literal('PUT')]),
  url: t.String(),
  headers: t.Record(t.String(), t.String()),
  body: t.String(),
})
