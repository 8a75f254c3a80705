// The db capability's HTTP answer models (Elysia `t`): what its routes return, as the OpenAPI document at /api/docs/json and the typed client see it.
import { t } from 'elysia'

export const FileSizesModel = t.Object({ db: t.Number(), wal: t.Number(), shm: t.Number(), total: t.Number() })
export const TableStatModel = t.Object({ name: t.String(), rows: t.Number(), bytes: t.Number(), indexBytes: t.Number() })
export const IntegrityResultModel = t.Object({
  mode: t.Union([t.Literal('quick'), t.Literal('full')]),
  ok: t.Boolean(),
  messages: t.Array(t.String()),
  ms: t.Number(),
})
