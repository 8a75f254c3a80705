// Models shared by every route: the error answer (src/app.ts maps every failure to it once) and a helper
// that declares it for a route's documented error statuses, so the OpenAPI document at /api/docs/json
// and the typed client (Eden Treaty, from `App` in src/app.ts) know both the success and the error shape.
// Also the log line model of src/lib/log.ts (the admin log tail).
import { t, type TSchema } from 'elysia'

/** `schema` or null. (Not t.Nullable: its `nullable: true` is no keyword of OpenAPI 3.1, whose document says it with `type: 'null'`.) */
export const nullable = <S extends TSchema>(schema: S) => t.Union([schema, t.Null()])

/** {error: {code, message, ...details}}: details such as `retryAfter` (429) or `field` ride along. */
export const ErrorModel = t.Object(
  {
    error: t.Object(
      {
        code: t.String({ description: "machine-readable, e.g. 'VALIDATION', 'UNAUTHORIZED', 'NOT_FOUND'" }),
        message: t.String({ description: 'for people; safe to show' }),
      },
      { additionalProperties: true },
    ),
  },
  { title: 'Error' },
)

/** The error model for each of `statuses` (400 invalid input, 401 not signed in, 403 refused, 404 not found, …). */
export function errors<S extends number>(...statuses: S[]): Record<S, typeof ErrorModel> {
  return Object.fromEntries(statuses.map((s) => [s, ErrorModel])) as Record<S, typeof ErrorModel>
}

export const LogLevelModel = t.Union([t.Literal('debug'), t.Literal('error'), t.Literal('info'), t.Literal('warn')])
export const LogLineModel = t.Object({ seq: t.Number(), at: t.String(), level: LogLevelModel, text: t.String() })

type Schema = {
  properties?: Record<string, Schema>
  additionalProperties?: unknown
  items?: Schema
  anyOf?: Schema[]
  patternProperties?: Record<string, Schema>
}

/**
 * The paths of `value` that `schema` does not describe, e.g. ['matches[0].seller']: Elysia strips them
 * from the answer without a word, so a model that forgets a field would silently change the API.
 * Tests run every route with this check (createApp's `checkModels`).
 */
export function droppedFields(schema: Schema, value: unknown, at = ''): string[] {
  if (value === null || typeof value !== 'object') return []
  if (schema.anyOf) {
    const tries = schema.anyOf.map((s) => droppedFields(s, value, at))
    return tries.find((d) => d.length === 0) ?? tries.reduce((a, b) => (b.length < a.length ? b : a))
  }
  if (Array.isArray(value)) return schema.items ? value.flatMap((v, i) => droppedFields(schema.items!, v, `${at}[${i}]`)) : []
  const record = schema.patternProperties ? Object.values(schema.patternProperties)[0] : undefined
  if (record) return Object.entries(value).flatMap(([k, v]) => droppedFields(record, v, `${at}.${k}`))
  if (!schema.properties) return []
  return Object.entries(value).flatMap(([k, v]) => {
    const sub = schema.properties![k]
    if (sub) return droppedFields(sub, v, `${at}.${k}`)
    return schema.additionalProperties === true ? [] : [`${at}.${k}`]
  })
}

type Answer = { description: string; type?: string; headers?: string[] }

/**
 * OpenAPI responses of a route whose answer is not JSON (a redirect, a page, a feed, a download):
 * the plugin takes them from `detail.responses` when the route has no `response` models.
 * `type` is the answer's content type (its body a string); `headers` the headers it sets (e.g. location).
 */
type Described = {
  description: string
  headers?: Record<string, { schema: { type: 'string' } }>
  content?: Record<string, { schema: { type: 'string' } | { type: 'object' } }>
}

export function otherResponses(answers: Record<number, Answer>, ...errorStatuses: number[]): Record<string, Described> {
  const out: Record<string, Described> = {}
  for (const [status, a] of Object.entries(answers))
    out[status] = {
      description: a.description,
      ...(a.headers && { headers: Object.fromEntries(a.headers.map((h) => [h, { schema: { type: 'string' as const } }])) }),
      ...(a.type && { content: { [a.type]: { schema: { type: 'string' as const } } } }),
    }
  for (const s of errorStatuses) out[s] = { description: 'Error', content: { 'application/json': { schema: ErrorModel as { type: 'object' } } } }
  return out
}
