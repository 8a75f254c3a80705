// Admin → Revenue, fetching and state: the report for the chosen number of weeks (GET /api/admin/revenue),
// loaded again when the weeks change. The page (../Revenue.tsx) only renders.
import { useCallback, useEffect, useState } from 'react'
import { api, ApiError } from '../../../api'

export type Report = {
  billingEnabled: boolean
  defaultPlan: string | null
  mrrCents: number
  plans: { plan: string; name: string; priceCents: number; subscribers: number; mrrCents: number }[]
  accounts: Record<string, number>
  gifted: { userId: number; email: string; plan: string; until: string | null; grantedBy: string | null }[]
  weeks: { weekStart: string; trialsStarted: number; trialsConverted: number; trialsExpired: number; churned: number }[]
  churn: { windowDays: number; churned: number; payingAtStart: number; rate: number | null }
}

export function useRevenue() {
  const [weeks, setWeeks] = useState(12)
  const [report, setReport] = useState<Report | null>(null)
  const [error, setError] = useState<string | null>(null)
  const load = useCallback(async () => {
    try {
      setReport(await api<Report>(`/api/admin/revenue?weeks=${weeks}`))
      setError(null)
    } catch (err) {
      setError(err instanceof ApiError ? err.message : 'Failed to load revenue.')
    }
  }, [weeks])
  useEffect(() => void load(), [load])
  return { weeks, setWeeks, report, error }
}
