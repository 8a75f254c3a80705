// Admin → Alerts, fetching and state: the outbox overview for the chosen range, the failed messages
// page by page, and Retry one / Retry all (a toast, then both reloaded). The page (../Alerts.tsx)
// only renders.
import { useState } from 'react'
import { api, ApiError, call, type Answer } from '../../../client'
import { errorToast, toast } from '../../../toast'
import { formatCount } from '../data-format'
import { useAdminData, type Range } from '../RangePicker'

export type Overview = Answer<typeof api.admin.alerts.get>
export type FailedPage = Answer<typeof api.admin.alerts.failed.get>

export function useAlerts() {
  const [days, setDays] = useState<Range>(7)
  const [page, setPage] = useState(1)
  const overview = useAdminData(`/api/admin/alerts?days=${days}`, () => call(api.admin.alerts.get({ query: { days: `${days}` } })), 'Failed to load the outbox')
  const failed = useAdminData(
    `/api/admin/alerts/failed?page=${page}`,
    () => call(api.admin.alerts.failed.get({ query: { page } })),
    'Failed to load failed messages',
  )
  const [busy, setBusy] = useState<number | 'all' | null>(null)
  const reload = () => Promise.all([overview.reload(), failed.reload()])

  const retry = async (id: number | 'all') => {
    setBusy(id)
    try {
      if (id === 'all') {
        const r = await call(api.admin.alerts['retry-failed'].post())
        toast({ title: 'Failed messages queued again', description: `${formatCount(r.count)} message${r.count === 1 ? '' : 's'} will be sent again.` })
        setPage(1)
      } else {
        await call(api.admin.alerts({ id }).retry.post())

        toast({ title: 'Message queued again', description: `Message #${id} will be sent again.` })
      }
      await reload()
    } catch (err) {
      errorToast(err instanceof ApiError ? err.message : 'Please try again.', 'Retry failed')
    } finally {
      setBusy(null)
    }
  }

  return { days, setDays, setPage, overview, failed, busy, retry, reload }
}
