// Admin → Database, fetching and state: the figures (GET /api/admin/database) and the actions —
// integrity check, optimize, archive — each with its busy flag, toast and a reload after it. The page
// (../Database.tsx) only renders.
import { useState } from 'react'
import { api, ApiError, call, type Answer } from '../../../client'
import { errorToast, toast } from '../../../toast'
import { formatBytes, formatCount } from '../data-format'
import { useAdminData } from '../RangePicker'

export type Stats = Answer<typeof api.admin.database.get>
type IntegrityResult = Answer<typeof api.admin.database.integrity.post>

const message = (err: unknown, fallback: string) => (err instanceof ApiError ? err.message : fallback)

export function useDatabase() {
  const { data, error, reload } = useAdminData('/api/admin/database', () => call(api.admin.database.get()), 'Failed to load database details')
  const [busy, setBusy] = useState<string | null>(null)
  const [integrity, setIntegrity] = useState<IntegrityResult | null>(null)
  const [confirm, setConfirm] = useState<'optimize' | 'archive' | null>(null)
  const [cutoff, setCutoff] = useState(168)

  const run = async <T>(name: string, action: () => Promise<T>, done: (r: T) => void, failTitle: string) => {
    setBusy(name)
    try {
      done(await action())
      void reload()
    } catch (err) {
      errorToast(message(err, 'Please try again.'), failTitle)
    } finally {
      setBusy(null)
    }
  }
  const checkIntegrity = (mode: 'quick' | 'full') =>
    run(
      mode,
      () => call(api.admin.database.integrity.post({ mode })),
      (r) => {
        setIntegrity(r)
        if (r.ok) toast({ title: 'Integrity check passed', description: `${mode === 'quick' ? 'Quick' : 'Full'} check: ok (${r.ms} ms).` })
        else errorToast(r.messages.slice(0, 3).join(' '), 'Integrity check found problems')
      },
      'Integrity check failed',
    )
  const optimize = () =>
    run(
      'optimize',
      () => call(api.admin.database.optimize.post()),
      (r) =>
        toast({
          title: 'Database optimized',
          description: `${formatBytes(r.before.total)} → ${formatBytes(r.after.total)} (${formatBytes(Math.max(0, r.savedBytes))} freed, ${r.ms} ms).`,
        }),
      'Optimize failed',
    )
  const archive = () =>
    run(
      'archive',
      () => call(api.admin.database.archive.post({ olderThanHours: cutoff })),

      (r) => toast({ title: 'Archive completed', description: `${formatCount(r.count)} posts archived.` }),
      'Archive failed',
    )

  return { data, error, reload, busy, integrity, confirm, setConfirm, cutoff, setCutoff, checkIntegrity, optimize, archive }
}
