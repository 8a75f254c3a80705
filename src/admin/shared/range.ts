// `?days=` of the range pages (Trends, Alerts): 7, 30 or 90, default 7.
import { t } from 'elysia'
import type { RangeDays } from './series'

export const rangeQuery = t.Object({
  days: t.Optional(t.UnionEnum(['7', '30', '90'])),
})
export const rangeDays = (query: { days?: string }) => Number(query.days ?? 7) as RangeDays
