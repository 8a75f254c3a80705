// The terms capability's HTTP answer models (Elysia `t`): what its routes return, as the OpenAPI document at /api/docs/json and the typed client see it.
import { t } from 'elysia'
import { CategoryModel } from '../contract/models'
import { TermDeliveryModel } from '../notify/models'
import { nullable } from '../lib/models'

export const ImportFormatModel = t.Union([t.Literal('csv'), t.Literal('json')])
export const ImportStatusModel = t.Union([t.Literal('add'), t.Literal('duplicate'), t.Literal('refused')])
export const ImportRowModel = t.Object({
  line: t.Number(),
  category: t.String(),
  term: t.String(),
  status: ImportStatusModel,
  reason: nullable(t.String()),
  code: nullable(
    t.Union([
      t.Literal('UNKNOWN_CATEGORY'),
      t.Literal('FORUM_NOT_IN_PLAN'),
      t.Literal('INVALID_TERM'),
      t.Literal('INVALID_OPTION'),
      t.Literal('TERM_LIMIT'),
      t.Literal('TERM_EXISTS'),
      t.Literal('REPEATED'),
    ]),
  ),
  note: nullable(t.String()),
})
export const ImportResultModel = t.Object({
  dryRun: t.Boolean(),
  format: ImportFormatModel,
  rows: t.Array(ImportRowModel),
  summary: t.Record(ImportStatusModel, t.Number()),
})
export const TermItemModel = t.Object({
  delivery: TermDeliveryModel,
  mutedUntil: nullable(t.String()),
  alwaysNotify: t.Boolean(),
  id: t.Number(),
  term: t.String(),
  category: CategoryModel,
  createdAt: t.String(),
  paused: t.Boolean(),
  note: nullable(t.String()),
})
export const SavedTermModel = t.Object({ term: t.String(), saves: t.Number(), users: t.Number(), categories: t.Array(t.String()), matches: t.Number() })
export const TermsGetResponse = t.Object({
  terms: t.Array(TermItemModel),
  limit: t.Number(),
})
export const TermsExportResponse = t.Union([
  t.String(),
  t.Object({
    format: t.Literal('dibs-terms'),
    version: t.Literal(1),
    exportedAt: t.String(),
    terms: t.Array(
      t.Object({
        category: CategoryModel,
        term: t.String(),
        paused: t.Boolean(),
        delivery: TermDeliveryModel,
        mutedUntil: nullable(t.String()),
        alwaysNotify: t.Boolean(),
        createdAt: t.String(),
      }),
    ),
  }),
])
export const TermsImportResponse = ImportResultModel
export const TermsPostResponse = t.Object({ term: TermItemModel, backfilled: t.Number() })
export const TermsIdDeliveryResponse = t.Object({
  term: TermItemModel,
})
export const TermsIdDeleteResponse = t.Object({ id: t.Number(), matchesRemoved: t.Number() })
export const TermsDeleteResponse = t.Object({ count: t.Number(), matchesRemoved: t.Number() })
