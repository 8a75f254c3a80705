// Admin → Tools, fetching and state: the scan metrics (every 30 s and on each live scan.metric), the
// job log (10 latest; again after each action), and the actions with their toasts: Run scraper now,
// batch matching, post-type backfill, archive old posts (asked first with the count). The page
// (../Tools.tsx) and its cards (./ScanMetricsPanel.tsx, ./JobLog.tsx, ./ActionButton.tsx) only
// render. Server end: src/admin/tools/; every action there is audited.
import { useEffect, useState } from 'react'
import { api, ApiError, call, type Answer } from '../../../client'
import { usePolling } from '../../../admin'
import { onMessage } from '../../../realtime'
import { errorToast, toast } from '../../../toast'

export const METRICS_REFRESH_MS = 30_000

// The answers' shapes are the server's own (src/admin/tools/ through the typed client), not copies.
export type Metrics = Answer<(typeof api.admin)['scan-metrics']['get']>
/** One run in the job log (GET /api/admin/maintenance-logs). */
export type JobRun = Answer<(typeof api.admin)['maintenance-logs']['get']>[number]
export type BatchResult = Answer<(typeof api.admin)['match-batch']['post']>

/** What archiving posts older than `hours` does, said before it is done. */
export function archiveQuestion(count: number, hours: number): string {
  const age = hours === 24 ? '24 hours' : '7 days'
  if (count === 0) return `No stored post is older than ${age}: nothing would be deleted.`
  const feed = hours < 168 ? ' The public live feed shows the last 7 days, so these posts also leave it.' : ''
  return `${count} ${count === 1 ? 'post' : 'posts'} older than ${age} will be deleted from the database.${feed} Matches keep their title and link. This cannot be undone.`
}

/** 403 (permission text) and 409 (paused) carry a message worth showing; anything else shows the spec's text only. */
function failure(title: string, err: unknown) {
  if (err instanceof ApiError && (err.status === 403 || err.status === 409)) errorToast(err.message, title)
  else errorToast(title)
}

export function useScanMetrics() {
  const m = usePolling(() => call(api.admin['scan-metrics'].get()), METRICS_REFRESH_MS)
  const { reload } = m
  useEffect(() => onMessage('scan.metric', () => reload()), [])
  useEffect(() => {
    if (m.error) toast({ title: 'Error loading metrics', description: 'Could not load scanning metrics data', variant: 'destructive' })
  }, [m.error])
  return m
}

/** The job log's 10 latest runs, loaded again when `version` moves. */
export function useJobLog(version: number) {
  const l = usePolling(() => call(api.admin['maintenance-logs'].get({ query: { limit: 10 } })), 0, [version])
  useEffect(() => {
    if (l.error) toast({ title: 'Failed to load logs', description: 'Could not retrieve maintenance logs', variant: 'destructive' })
  }, [l.error])
  return l
}

/** The actions; `version` moves after each one (the job log reloads), `archiveAsk` is the question the confirmation shows. */
export function useTools() {
  const [version, setVersion] = useState(0)
  const [archiveHours, setArchiveHours] = useState(24)
  const done = () => setVersion((v) => v + 1)

  const trigger = async () => {
    try {
      const r = await call(api.admin.scraper.trigger.post({}))
      // a source in trouble: its state and fix instead of "will run shortly"
      toast({
        title: 'Scraper job scheduled',
        description: r.sourceProblem ?? 'The Reddit scraper job has been scheduled and will run shortly',
        ...(r.sourceProblem ? { variant: 'destructive' as const } : {}),
      })
      setTimeout(done, 1500)
    } catch (err) {
      failure('Failed to schedule Reddit scraper job', err)
    }
  }
  const batch = async () => {
    try {
      const r = await call(api.admin['match-batch'].post({}))
      toast({
        title: 'Batch matching completed',
        description: `Created ${r.matches_created} matches in ${r.execution_time_seconds} seconds (${r.recent_posts_count} posts, ${r.total_search_terms} terms)`,
      })
      done()
    } catch (err) {
      failure('Failed to run batch matching job', err)
    }
  }
  const backfill = async () => {
    try {
      const r = await call(api.admin['backfill-post-types'].post({}))
      toast({ title: 'Backfill completed', description: `Classified ${r.count} of ${r.examined} unclassified posts` })
      done()
    } catch (err) {
      failure('Backfill failed', err)
    }
  }
  // Ask first, with the number of posts that would go (issue 30 §5: 24 h empties the live feed).
  const [archiveAsk, setArchiveAsk] = useState<string | null>(null)
  const askArchive = async () => {
    try {
      const { count } = await call(api.admin['archive-posts'].get({ query: { olderThanHours: archiveHours } }))
      setArchiveAsk(archiveQuestion(count, archiveHours))
    } catch (err) {
      failure('Archive failed', err)
    }
  }
  const archive = async () => {
    try {
      const r = await call(api.admin['archive-posts'].post({ olderThanHours: archiveHours }))
      toast({ title: 'Archive completed', description: `Archived ${r.count} posts older than ${archiveHours === 24 ? '24 hours' : '7 days'}` })
      done()
    } catch (err) {
      failure('Archive failed', err)
    }
  }

  return { version, archiveHours, setArchiveHours, trigger, batch, backfill, archiveAsk, setArchiveAsk, askArchive, archive }
}
