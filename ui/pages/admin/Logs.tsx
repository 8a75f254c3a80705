// /admin/logs ('Scraper Logs'; spec §2 Logs made real): the scanner's status with Pause and Force
// run, the runtime scan settings (stored in system_settings, applied without a restart), the scan
// log with a status filter, and the last 500 application log lines with a level filter and a live
// tail (polling ?after=). Server end: src/admin/logs.ts.
import { Fragment, useEffect, useRef, useState } from 'react'
import { useSignals } from '@preact/signals-react/runtime'
import { api, ApiError } from '../../api'
import { formatMs, formatWhen, putSystemSetting, systemSettings, usePolling } from '../../admin'
import { onMessage } from '../../realtime'
import { errorToast, toast } from '../../toast'
import { AdminLayout } from './AdminLayout'
import { CoverageGaps } from './CoverageGaps'

export const STATUS_REFRESH_MS = 5_000
export const TAIL_MS = 3_000

type Settings = {
  intervalSeconds: number | null
  maxRequestsPerMinute: number
  source: 'stored' | 'environment'
  mode: string | null
  modeCapPerMinute: number | null
  minIntervalSeconds: number | null
  updatedAt: string | null
  applicable: boolean
}
type Status = {
  state: 'running' | 'paused' | 'waiting' | 'failing' | 'idle'
  paused: boolean
  waitingUntil: string | null
  waitingReason: string | null
  waitingWhy?: string | null
  failingSince: string | null
  lastError: string | null
  lastScanAt: string | null
  lastSuccessAt: string | null
  nextScanAt: string | null
  mode: string | null
  unparsed?: { last24h: number; recent: { redditId: string; title: string; error: string; at: string }[] }
  health?: {
    state: 'ok' | 'slow' | 'failing' | 'forum_missing' | 'blocked' | 'login_required'
    reason: string | null
    since: string | null
    lastSuccessAt: string | null
    requestsLastHour: number
    rateLimitedLastHour: number
    forbiddenLastHour: number
    nextTryAt: string | null
  } | null
  lastPostPerForum?: { subreddit: string; at: string | null; flag: string | null }[]
  forumNotice?: string | null
  recheck?: string
  settings: Settings
}
type ScanOutcome = { status: string; postsNew: number; matchesCreated: number; error: string | null; nextAt: string; waitingWhy?: string | null }
type LogEntry = { at: string; source: 'scan' | 'job'; job: string; status: string; durationMs: number; summary: string; error: string | null }
type LogLine = { seq: number; at: string; level: 'debug' | 'info' | 'warn' | 'error'; text: string }

function stateText(s: Status): string {
  switch (s.state) {
    case 'running':
      return 'Running: a scan is in progress'
    case 'paused':
      return 'Paused: the emergency pause is on'
    case 'waiting':
      return `Waiting until ${formatWhen(s.waitingUntil)}: ${s.waitingWhy ?? 'the rate budget allows no request yet'}`
    case 'failing':
      return `Failing since ${formatWhen(s.failingSince)}`
    case 'idle':
    default:
      if (!s.nextScanAt) return 'Idle'
      return Date.parse(s.nextScanAt) > Date.now() ? `Idle: next scan ${formatWhen(s.nextScanAt)}` : 'Idle: next scan due now'
  }
}

const TONE: Record<Status['state'], string> = { running: 'ok', idle: 'ok', paused: 'danger', failing: 'danger', waiting: 'warning' }

/** The badge: the source's own state while it is in trouble (blocked, login required, …), else the scanner's. */
function badge(s: Status): { text: string; tone: string } {
  const h = s.health
  if (h && h.state !== 'ok' && s.state !== 'running' && s.state !== 'paused')
    return { text: `source ${h.state.replace('_', ' ')}`, tone: h.state === 'slow' ? 'warning' : 'danger' }
  return { text: s.state === 'waiting' ? 'waiting' : s.state, tone: TONE[s.state] }
}

function ScannerCard({ status, reload }: { status: Status | null; reload: () => void }) {
  useSignals()
  const paused = systemSettings.value?.is_emergency_paused ?? status?.paused ?? false
  const [busy, setBusy] = useState<'pause' | 'run' | null>(null)
  const togglePause = async () => {
    setBusy('pause')
    try {
      const now = await putSystemSetting('is_emergency_paused', !paused)
      toast(
        now
          ? { title: 'EMERGENCY PAUSE ACTIVATED', description: 'All system operations are now paused', variant: 'destructive' }
          : { title: 'Emergency Pause Deactivated', description: 'System operations have been resumed' },
      )
    } catch (err) {
      errorToast(err instanceof ApiError ? 'Failed to update emergency pause status' : 'An unexpected error occurred')
    } finally {
      setBusy(null)
      reload()
    }
  }
  const forceRun = async () => {
    setBusy('run')
    try {
      const o = await api<ScanOutcome>('/api/admin/scanner/run', { method: 'POST', json: {} })
      if (o.status === 'success') toast({ title: 'Scan finished', description: `${o.postsNew} new posts, ${o.matchesCreated} matches` })
      else if (o.status === 'busy') toast({ title: 'A scan was already running', description: 'Its result is in the scan log; no second scan was started.' })
      else if (o.status === 'waiting')
        toast({
          title: 'Scan not sent',
          description: `Not sent: ${o.waitingWhy ?? 'the rate budget allows no request yet'}. Next try ${formatWhen(o.nextAt)}.`,
        })
      else if (o.status === 'paused') toast({ title: 'Scanning is paused', description: 'Switch the emergency pause off first.' })
      else errorToast(o.error ?? 'The scan failed.', 'Scan failed')
    } catch (err) {
      errorToast(err instanceof ApiError ? err.message : 'Failed to schedule Reddit scraper job', 'Failed to schedule Reddit scraper job')
    } finally {
      setBusy(null)
      reload()
    }
  }
  return (
    <article className="admin-card" aria-labelledby="scanner-title" data-testid="scanner-status">
      <header>
        <h2 id="scanner-title">
          Scanner{' '}
          {status ? (
            <span className={`badge status-badge tone-${badge(status).tone}`} data-testid="scanner-state">
              {badge(status).text}
            </span>
          ) : null}
        </h2>
      </header>
      {status ? (
        <>
          <p>{stateText(status)}</p>
          {status.forumNotice ? (
            <p className="text-danger" data-testid="forum-notice">
              {status.forumNotice}
            </p>
          ) : null}
          {status.state === 'failing' && status.lastError ? <p className="text-danger">Last error: {status.lastError}</p> : null}
          <dl className="stat-list">
            <dt>Last scan</dt>
            <dd>{formatWhen(status.lastScanAt)}</dd>
            <dt>Last success</dt>
            <dd>{formatWhen(status.lastSuccessAt)}</dd>
            <dt>Source</dt>
            <dd>{status.mode ?? '—'}</dd>
            {status.health ? (
              <>
                <dt>Source health</dt>
                <dd data-testid="source-health">
                  {status.health.state.replace('_', ' ')}
                  {status.health.since ? ` since ${formatWhen(status.health.since)}` : ''} · {status.health.requestsLastHour}{' '}
                  {status.health.requestsLastHour === 1 ? 'request' : 'requests'}, {status.health.rateLimitedLastHour} × 429, {status.health.forbiddenLastHour}{' '}
                  × 403 in the last hour
                  {status.health.nextTryAt ? ` · next try ${formatWhen(status.health.nextTryAt)}` : ''}
                </dd>
              </>
            ) : null}
            {(status.lastPostPerForum ?? []).map((f) => (
              <Fragment key={f.subreddit}>
                <dt>Last post in r/{f.subreddit}</dt>
                <dd data-testid="forum-last-post">
                  {formatWhen(f.at)}
                  {f.flag ? <span className="text-danger"> · {f.flag}</span> : null}
                </dd>
              </Fragment>
            ))}
          </dl>
          {status.health?.reason ? (
            <p className={status.health.state === 'slow' ? '' : 'text-danger'} data-testid="source-health-reason">
              {status.health.reason}
            </p>
          ) : null}
          {status.recheck ? (
            <p className="muted small-text" data-testid="recheck-note">
              {status.recheck}
            </p>
          ) : null}
          {status.unparsed && status.unparsed.last24h > 0 ? (
            <div className="text-danger" data-testid="unparsed-posts">
              <p>
                {status.unparsed.last24h === 1 ? '1 post' : `${status.unparsed.last24h} posts`} could not be read in the last 24 hours: stored unparsed and
                never matched; the rest of each scan went on.
              </p>
              <ul>
                {status.unparsed.recent.map((p) => (
                  <li key={p.redditId}>
                    {p.redditId} “{p.title}”: {p.error}
                  </li>
                ))}
              </ul>
            </div>
          ) : null}
        </>
      ) : (
        <p aria-busy="true">Loading…</p>
      )}
      <div className="button-row">
        <button type="button" className={paused ? '' : 'secondary'} onClick={togglePause} aria-busy={busy === 'pause'} disabled={busy !== null}>
          {paused ? 'Resume' : 'Pause'}
        </button>
        <button type="button" className="outline" onClick={forceRun} aria-busy={busy === 'run'} disabled={busy !== null}>
          Force run
        </button>
      </div>
      <p className="muted small-text">
        Pause is the emergency pause: scanning, matching and alerting stop together. Force run scans once now within the rate budget and never overlaps a scan
        in flight.
      </p>
    </article>
  )
}

function SettingsCard({ settings, reload }: { settings: Settings | null; reload: () => void }) {
  const [adaptive, setAdaptive] = useState(true)
  const [interval, setIntervalValue] = useState('')
  const [cap, setCap] = useState('')
  const [saving, setSaving] = useState(false)
  const [error, setError] = useState<string | null>(null)
  useEffect(() => {
    if (!settings) return
    setAdaptive(settings.intervalSeconds === null)
    setIntervalValue(settings.intervalSeconds === null ? '' : String(settings.intervalSeconds))
    setCap(String(settings.maxRequestsPerMinute))
  }, [settings?.intervalSeconds, settings?.maxRequestsPerMinute, settings?.source])
  if (!settings) return null
  const submit = async (e: React.FormEvent) => {
    e.preventDefault()
    setSaving(true)
    setError(null)
    try {
      await api('/api/admin/scan-settings', { method: 'PUT', json: { intervalSeconds: adaptive ? null : Number(interval), maxRequestsPerMinute: Number(cap) } })
      toast({ title: 'Scan settings saved', description: 'Applied now, no restart needed.' })
      reload()
    } catch (err) {
      const message = err instanceof Error ? err.message : 'An unexpected error occurred'
      setError(message)
      errorToast(message, 'Scan settings not saved')
    } finally {
      setSaving(false)
    }
  }
  const reset = async () => {
    try {
      await api('/api/admin/scan-settings', { method: 'DELETE' })
      toast({ title: 'Scan settings reset', description: 'Back to the environment settings.' })
      reload()
    } catch (err) {
      errorToast(err instanceof Error ? err.message : 'An unexpected error occurred')
    }
  }
  return (
    <article className="admin-card" aria-labelledby="settings-title">
      <header>
        <h2 id="settings-title">Scan settings</h2>
      </header>
      {!settings.applicable ? (
        <p className="muted">The demo forum has no Reddit rate budget: its interval comes from SCAN_INTERVAL_SECONDS and there is nothing to set here.</p>
      ) : (
        <form onSubmit={submit} noValidate>
          <fieldset>
            <label>
              <input type="checkbox" role="switch" checked={adaptive} onChange={(e) => setAdaptive(e.currentTarget.checked)} />
              Adaptive interval (the rate budget decides)
            </label>
            <label>
              Scan interval (seconds)
              <input
                type="number"
                inputMode="decimal"
                min={settings.minIntervalSeconds ?? 1}
                max={3600}
                step="0.5"
                value={interval}
                disabled={adaptive}
                onChange={(e) => setIntervalValue(e.currentTarget.value)}
                aria-describedby="interval-help"
              />
              <small id="interval-help">
                At least {settings.minIntervalSeconds} s at {settings.maxRequestsPerMinute} requests per minute; at most 3600 s.
              </small>
            </label>
            <label>
              Max Reddit requests per minute
              <input
                type="number"
                inputMode="numeric"
                min={1}
                max={settings.modeCapPerMinute ?? undefined}
                step="1"
                value={cap}
                onChange={(e) => setCap(e.currentTarget.value)}
                aria-describedby="cap-help"
                aria-invalid={error !== null ? true : undefined}
              />
              <small id="cap-help">
                1 to {settings.modeCapPerMinute} ({settings.mode} mode allows {settings.modeCapPerMinute}).
              </small>
            </label>
          </fieldset>
          {error ? (
            <p role="alert" className="text-danger">
              {error}
            </p>
          ) : null}
          <div className="button-row">
            <button type="submit" aria-busy={saving} disabled={saving}>
              Save settings
            </button>
            <button type="button" className="outline secondary" onClick={reset} disabled={settings.source === 'environment'}>
              Reset to environment
            </button>
          </div>
          <p className="muted small-text">
            In force: {settings.source === 'stored' ? `saved ${formatWhen(settings.updatedAt)}` : 'environment defaults'}. Active instances are not set here:
            one Dibs process does all the scanning, so there is nothing to scale.
          </p>
        </form>
      )}
    </article>
  )
}

function ScanLog({ version }: { version: number }) {
  const [status, setStatus] = useState('')
  const log = usePolling(() => api<LogEntry[]>(`/api/admin/scan-log?limit=200${status ? `&status=${encodeURIComponent(status)}` : ''}`), 30_000, [
    status,
    version,
  ])
  return (
    <article className="admin-card" aria-labelledby="scanlog-title">
      <header className="card-head">
        <h2 id="scanlog-title">Scan log</h2>
        <label className="inline-field">
          Status
          <select value={status} onChange={(e) => setStatus(e.currentTarget.value)}>
            <option value="">All</option>
            <option value="success">success</option>
            <option value="failed">failed</option>
            <option value="skipped">skipped</option>
          </select>
        </label>
      </header>
      {log.error ? (
        <p role="alert" className="inline-error">
          Failed to load logs — Could not retrieve maintenance logs{' '}
          <button type="button" className="small" onClick={log.reload}>
            Retry
          </button>
        </p>
      ) : null}
      <div className="table-scroll tall" tabIndex={0} role="region" aria-label="Scan log entries">
        <table className="admin-table" data-testid="scan-log">
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Job</th>
              <th scope="col">Status</th>
              <th scope="col">Duration</th>
              <th scope="col">Details</th>
            </tr>
          </thead>
          <tbody>
            {log.data && log.data.length === 0 ? (
              <tr>
                <td colSpan={5} className="muted">
                  No entries{status ? ` with status ${status}` : ''}.
                </td>
              </tr>
            ) : null}
            {(log.data ?? []).map((e, i) => (
              <tr key={`${e.at}-${i}`}>
                <td>{formatWhen(e.at)}</td>
                <td>{e.job}</td>
                <td>
                  <span className={`badge status-${e.status}`}>{e.status}</span>
                </td>
                <td>{formatMs(e.durationMs)}</td>
                <td>
                  {e.summary}
                  {e.error ? <span className="text-danger"> {e.error}</span> : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </article>
  )
}

function AppLog() {
  const [level, setLevel] = useState<LogLine['level']>('info')
  const [live, setLive] = useState(true)
  const [lines, setLines] = useState<LogLine[]>([])
  const [failed, setFailed] = useState(false)
  const last = useRef(0)
  const box = useRef<HTMLPreElement>(null)
  useEffect(() => {
    let alive = true
    last.current = 0
    setLines([])
    const pull = async () => {
      try {
        const r = await api<{ lines: LogLine[]; lastSeq: number }>(`/api/admin/logs/app?level=${level}&after=${last.current}`)
        if (!alive) return
        last.current = r.lastSeq
        setFailed(false)
        if (r.lines.length) setLines((old) => [...old, ...r.lines].slice(-500))
      } catch {
        if (alive) setFailed(true)
      }
    }
    void pull()
    const timer = live ? setInterval(() => void pull(), TAIL_MS) : null
    return () => {
      alive = false
      if (timer) clearInterval(timer)
    }
  }, [level, live])
  useEffect(() => {
    const el = box.current
    if (el && live) el.scrollTop = el.scrollHeight
  }, [lines, live])
  return (
    <article className="admin-card" aria-labelledby="applog-title">
      <header className="card-head">
        <h2 id="applog-title">Application log</h2>
        <div className="inline-controls">
          <label className="inline-field">
            Level
            <select value={level} onChange={(e) => setLevel(e.currentTarget.value as LogLine['level'])}>
              <option value="debug">debug</option>
              <option value="info">info</option>
              <option value="warn">warn</option>
              <option value="error">error</option>
            </select>
          </label>
          <label className="inline-field">
            <input type="checkbox" role="switch" checked={live} onChange={(e) => setLive(e.currentTarget.checked)} />
            Live tail
          </label>
        </div>
      </header>
      <p className="muted small-text">The last 500 lines this process logged (kept in memory; a restart clears them).</p>
      {failed ? (
        <p role="alert" className="text-danger">
          Could not load the application log.
        </p>
      ) : null}
      <pre className="app-log" ref={box} tabIndex={0} aria-label="Application log lines" data-testid="app-log">
        {lines.length === 0
          ? 'No lines at this level yet.'
          : lines.map((l) => (
              <span key={l.seq} className={`log-${l.level}`}>
                {l.at.slice(11, 19)} {l.level.toUpperCase().padEnd(5)} {l.text}
                {'\n'}
              </span>
            ))}
      </pre>
    </article>
  )
}

export function AdminLogs() {
  const status = usePolling(() => api<Status>('/api/admin/scanner'), STATUS_REFRESH_MS)
  const [version, setVersion] = useState(0)
  const { reload } = status
  useEffect(() => {
    const offs = [onMessage('scan.metric', () => (reload(), setVersion((v) => v + 1))), onMessage('settings.changed', () => reload())]
    return () => offs.forEach((off) => off())
  }, [])
  return (
    <AdminLayout title="Scraper Logs">
      <div className="admin-columns">
        <ScannerCard status={status.data} reload={status.reload} />
        <SettingsCard settings={status.data?.settings ?? null} reload={status.reload} />
      </div>
      <CoverageGaps version={version} />
      <ScanLog version={version} />
      <AppLog />
    </AdminLayout>
  )
}
