// /admin/tools (spec §2 Tools, §7 scan_metrics / RPCs, §8 admin toasts): the scan metrics panel
// (latest 100 scans, 10 shown, 24 h stats, every 30 s and on each live scan.metric), the scraper
// trigger, batch matching, the 10 latest maintenance logs, post-type backfill and archive. The
// server end is src/admin/tools.ts; every action there is audited.
import { useEffect, useState } from 'react'
import { useSignals } from '@preact/signals-react/runtime'
import type { ScanMetric } from '../../../src/contract/events'
import { api, ApiError } from '../../api'
import { formatMs, formatWhen, usePolling } from '../../admin'
import { onMessage } from '../../realtime'
import { errorToast, toast } from '../../toast'
import { ConfirmDialog } from '../../components/ConfirmDialog'
import { AdminLayout } from './AdminLayout'
import { SCAN_TIERS, tierNote } from '../../lib/scan-frequency'
import { config } from '../../state'

export const METRICS_REFRESH_MS = 30_000
export const METRICS_SHOWN = 10

type Metrics = {
  rows: ScanMetric[]
  stats24h: { scans: number; successful: number; failed: number; postsNew: number; matchesFound: number; usersProcessed: number; avgDurationMs: number | null }
}
type MaintenanceLog = { id: number; jobName: string; status: string; executedAt: string; durationMs: number; details: Record<string, unknown> | null }
type BatchResult = { total_search_terms: number; recent_posts_count: number; matches_created: number; execution_time_seconds: number }

function ScanMetricsPanel() {
  const m = usePolling(() => api<Metrics>('/api/admin/scan-metrics'), METRICS_REFRESH_MS)
  const { reload } = m
  useEffect(() => onMessage('scan.metric', () => reload()), [])
  useEffect(() => {
    if (m.error) toast({ title: 'Error loading metrics', description: 'Could not load scanning metrics data', variant: 'destructive' })
  }, [m.error])
  const s = m.data?.stats24h
  return (
    <article className="admin-card" aria-labelledby="metrics-title" data-testid="scan-metrics">
      <header className="card-head">
        <h2 id="metrics-title">Scan metrics</h2>
        <button type="button" className="outline secondary small" onClick={m.reload} aria-busy={m.loading}>
          Refresh
        </button>
      </header>
      {m.error ? (
        <div role="alert" className="inline-error">
          <strong>Error loading metrics</strong> — Could not load scanning metrics data{' '}
          <button type="button" className="small" onClick={m.reload}>
            Retry
          </button>
        </div>
      ) : null}
      {s ? (
        <dl className="stat-grid" aria-label="Last 24 hours">
          <div>
            <dt>Scans (24 h)</dt>
            <dd>{s.scans}</dd>
          </div>
          <div>
            <dt>Successful</dt>
            <dd>{s.successful}</dd>
          </div>
          <div>
            <dt>Failed</dt>
            <dd className={s.failed > 0 ? 'text-danger' : ''}>{s.failed}</dd>
          </div>
          <div>
            <dt>New posts</dt>
            <dd>{s.postsNew}</dd>
          </div>
          <div>
            <dt>Matches</dt>
            <dd>{s.matchesFound}</dd>
          </div>
          <div>
            <dt>Avg duration</dt>
            <dd>{formatMs(s.avgDurationMs)}</dd>
          </div>
        </dl>
      ) : m.loading ? (
        <p aria-busy="true">Loading metrics…</p>
      ) : null}
      {m.data ? (
        <div className="table-scroll" tabIndex={0} role="region" aria-label="Latest scans">
          <table className="admin-table">
            <caption className="muted">
              {Math.min(METRICS_SHOWN, m.data.rows.length)} latest of {m.data.rows.length} loaded
            </caption>
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Type</th>
                <th scope="col">Status</th>
                <th scope="col">New posts</th>
                <th scope="col">Users</th>
                <th scope="col">Matches</th>
                <th scope="col">Duration</th>
              </tr>
            </thead>
            <tbody>
              {m.data.rows.length === 0 ? (
                <tr>
                  <td colSpan={7} className="muted">
                    No scans recorded yet.
                  </td>
                </tr>
              ) : null}
              {m.data.rows.slice(0, METRICS_SHOWN).map((r) => (
                <tr key={r.id}>
                  <td>{formatWhen(r.createdAt)}</td>
                  <td>{r.scanType}</td>
                  <td>
                    <span className={`badge status-${r.status}`} title={r.error ?? undefined}>
                      {r.status}
                    </span>
                  </td>
                  <td>{r.postsNew}</td>
                  <td>{r.usersProcessed}</td>
                  <td>{r.matchesFound}</td>
                  <td>{formatMs(r.durationMs)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      <ScanTiers />
    </article>
  )
}

/** The spec's 'Scan frequency by tier' (displayed), with what Dibs does beside it. */
function ScanTiers() {
  useSignals()
  return (
    <section aria-labelledby="scan-tiers-title" data-testid="scan-tiers">
      <h3 id="scan-tiers-title">Scan frequency by tier</h3>
      <ul className="scan-tiers">
        {SCAN_TIERS.map((t) => (
          <li key={t.tier}>
            {t.tier}: {t.every}
          </li>
        ))}
      </ul>
      <p className="muted">
        <small>{tierNote(config.value.scanIntervalSeconds)}</small>
      </p>
    </section>
  )
}

/** A button that runs one admin action and keeps itself busy meanwhile. */
function ActionButton({ label, run, className }: { label: string; run: () => Promise<unknown>; className?: string }) {
  const [busy, setBusy] = useState(false)
  return (
    <button
      type="button"
      className={className}
      aria-busy={busy}
      disabled={busy}
      onClick={async () => {
        setBusy(true)
        try {
          await run()
        } finally {
          setBusy(false)
        }
      }}
    >
      {label}
    </button>
  )
}

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

function MaintenanceLogs({ version }: { version: number }) {
  const l = usePolling(() => api<MaintenanceLog[]>('/api/admin/maintenance-logs?limit=10'), 0, [version])
  useEffect(() => {
    if (l.error) toast({ title: 'Failed to load logs', description: 'Could not retrieve maintenance logs', variant: 'destructive' })
  }, [l.error])
  return (
    <article className="admin-card" aria-labelledby="mlogs-title" data-testid="maintenance-logs">
      <header className="card-head">
        <h2 id="mlogs-title">Maintenance logs</h2>
        <button type="button" className="outline secondary small" onClick={l.reload} aria-busy={l.loading}>
          Refresh
        </button>
      </header>
      {l.error ? (
        <p role="alert" className="inline-error">
          Failed to load logs — Could not retrieve maintenance logs{' '}
          <button type="button" className="small" onClick={l.reload}>
            Retry
          </button>
        </p>
      ) : null}
      {l.data && l.data.length === 0 ? <p className="muted">No maintenance jobs have run yet.</p> : null}
      <ul className="log-list">
        {(l.data ?? []).map((r) => (
          <li key={r.id}>
            <strong>{r.jobName}</strong> <span className={`badge status-${r.status}`}>{r.status}</span>{' '}
            <small className="muted">
              {formatWhen(r.executedAt)} · {formatMs(r.durationMs)}
            </small>
            {r.details ? (
              <small className="log-details">
                {Object.entries(r.details)
                  .map(([k, v]) => `${k.replace(/_/g, ' ')}: ${typeof v === 'object' ? JSON.stringify(v) : v}`)
                  .join(' · ')}
              </small>
            ) : null}
          </li>
        ))}
      </ul>
    </article>
  )
}

export function AdminTools() {
  const [version, setVersion] = useState(0)
  const [archiveHours, setArchiveHours] = useState(24)
  const done = () => setVersion((v) => v + 1)

  const trigger = async () => {
    try {
      const r = await api<{ sourceProblem: string | null }>('/api/admin/scraper/trigger', { method: 'POST', json: {} })
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
      const r = await api<BatchResult>('/api/admin/match-batch', { method: 'POST', json: {} })
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
      const r = await api<{ count: number; examined: number }>('/api/admin/backfill-post-types', { method: 'POST', json: {} })
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
      const { count } = await api<{ count: number }>(`/api/admin/archive-posts?olderThanHours=${archiveHours}`)
      setArchiveAsk(archiveQuestion(count, archiveHours))
    } catch (err) {
      failure('Archive failed', err)
    }
  }
  const archive = async () => {
    try {
      const r = await api<{ count: number }>('/api/admin/archive-posts', { method: 'POST', json: { olderThanHours: archiveHours } })
      toast({ title: 'Archive completed', description: `Archived ${r.count} posts older than ${archiveHours === 24 ? '24 hours' : '7 days'}` })
      done()
    } catch (err) {
      failure('Archive failed', err)
    }
  }

  return (
    <AdminLayout title="Tools">
      <ScanMetricsPanel />
      <div className="admin-columns">
        <article className="admin-card" aria-labelledby="scraper-title">
          <header>
            <h2 id="scraper-title">Reddit scraper</h2>
          </header>
          <p className="muted">Schedules one scan now. It never overlaps a scan in flight and respects the Reddit rate budget.</p>
          <ActionButton label="Run scraper now" run={trigger} />
        </article>
        <article className="admin-card" aria-labelledby="batch-title">
          <header>
            <h2 id="batch-title">Batch matching</h2>
          </header>
          <p className="muted">Matches the last 24 hours of posts against every saved term and creates the missing matches (never alerted).</p>
          <ActionButton label="Run batch matching" run={batch} />
        </article>
      </div>
      <article className="admin-card" aria-labelledby="dbm-title">
        <header>
          <h2 id="dbm-title">Database maintenance</h2>
        </header>
        <div className="tool-row">
          <div>
            <h3>Post-type backfill</h3>
            <p className="muted">Classifies stored posts that have no post type yet (WTS/WTB/deals).</p>
          </div>
          <ActionButton label="Backfill post types" className="secondary" run={backfill} />
        </div>
        <div className="tool-row">
          <div>
            <h3>Archive old posts</h3>
            <p className="muted">
              Deletes stored posts older than the chosen age; matches keep their own copy of the post. The public live feed shows 7 days, so 24 hours also
              empties its older entries.
            </p>
            <label>
              Older than
              <select value={archiveHours} onChange={(e) => setArchiveHours(Number(e.currentTarget.value))}>
                <option value={24}>24 hours</option>
                <option value={168}>7 days</option>
              </select>
            </label>
          </div>
          <ActionButton label="Archive old posts" className="secondary" run={askArchive} />
        </div>
      </article>
      {archiveAsk !== null ? (
        <ConfirmDialog
          title="Archive old posts?"
          text={archiveAsk}
          action="Archive"
          onCancel={() => setArchiveAsk(null)}
          onConfirm={() => {
            setArchiveAsk(null)
            void archive()
          }}
        />
      ) : null}
      <MaintenanceLogs version={version} />
    </AdminLayout>
  )
}
