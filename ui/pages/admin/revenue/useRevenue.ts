// Admin → Revenue, fetching and state: the report for the chosen number of weeks (GET /api/admin/revenue),
// loaded again when the weeks change. The page (../Revenue.tsx) only renders.
import { useCallback, useEffect, useState } from 'react'
import { api, ApiError, call, type Answer } from '../../../client'

export type Report = Answer<typeof api.admin.revenue.get>

export function useRevenue() {
  const [weeks, setWeeks] = useState(12)
  const [report, setReport] = useState<Report | null>(null)
  const [error, setError] = useState<string | null>(null)
  const load = useCallback(async () => {
    try {
      setReport(await call(api.admin.revenue.get({ query: { weeks } })))

      setError(null)
    } catch (err) {
      setError(err instanceof ApiError ? err.message : 'Failed to load revenue.')
    }
  }, [weeks])
  useEffect(() => void load(), [load])
  return { weeks, setWeeks, report, error }
}
