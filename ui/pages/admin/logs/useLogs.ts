// Admin → Logs, fetching and state: the scanner's status (every 5 s, and on each scan.metric or
// settings.changed), Pause and Force run with their toasts, the scan settings form, the scan log
// with its status filter and the application log's live tail (polling ?after=). The page
// (../Logs.tsx) and its cards (./ScannerCard.tsx, ./SettingsCard.tsx, ./ScanLog.tsx, ./AppLog.tsx)
// only render. Server end: src/admin/logs/.
import { useEffect, useRef, useState } from 'react'
import { api, ApiError, call, type Answer } from '../../../client'
import { formatWhen, putSystemSetting, usePolling } from '../../../admin'
import { onMessage } from '../../../realtime'
import { errorToast, toast } from '../../../toast'

export const STATUS_REFRESH_MS = 5_000
export const TAIL_MS = 3_000

// The answers' shapes are the server's own (src/admin/logs/ through the typed client), not copies.
export type Status = Answer<typeof api.admin.scanner.get>
export type Settings = Status['settings']
export type ScanOutcome = Answer<typeof api.admin.scanner.run.post>
export type LogEntry = Answer<(typeof api.admin)['scan-log']['get']>[number]
export type LogLine = Answer<typeof api.admin.logs.app.get>['lines'][number]

/** The scanner's status; `version` counts live scans, so the scan log and coverage gaps reload with them. */
export function useScannerStatus() {
  const status = usePolling(() => call(api.admin.scanner.get()), STATUS_REFRESH_MS)
  const [version, setVersion] = useState(0)
  const { reload } = status
  useEffect(() => {
    const offs = [onMessage('scan.metric', () => (reload(), setVersion((v) => v + 1))), onMessage('settings.changed', () => reload())]
    return () => offs.forEach((off) => off())
  }, [])
  return { status, version }
}

/** Pause (the emergency pause) and Force run; `busy` names the one in flight; both reload the status after. */
export function useScannerActions(paused: boolean, reload: () => void) {
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
      const o = await call(api.admin.scanner.run.post({}))
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
  return { busy, togglePause, forceRun }
}

/** The scan settings form: its fields follow the settings in force; save (PUT) and reset (DELETE). */
export function useScanSettingsForm(settings: Settings | null, reload: () => void) {
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
  const submit = async (e: React.FormEvent) => {
    e.preventDefault()
    setSaving(true)
    setError(null)
    try {
      await call(api.admin['scan-settings'].put({ intervalSeconds: adaptive ? null : Number(interval), maxRequestsPerMinute: Number(cap) }))
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
      await call(api.admin['scan-settings'].delete())
      toast({ title: 'Scan settings reset', description: 'Back to the environment settings.' })
      reload()
    } catch (err) {
      errorToast(err instanceof Error ? err.message : 'An unexpected error occurred')
    }
  }
  return { adaptive, setAdaptive, interval, setIntervalValue, cap, setCap, saving, error, submit, reset }
}

/** The scan log (200 entries), optionally one status, every 30 s and when `version` moves. */
export function useScanLog(version: number) {
  const [status, setStatus] = useState('')
  const log = usePolling(() => call(api.admin['scan-log'].get({ query: { limit: 200, ...(status ? { status } : {}) } })), 30_000, [status, version])
  return { status, setStatus, log }
}

/** The application log: the lines at a level or above, tailed live every 3 s while `live`, kept scrolled to the end. */
export function useAppLog() {
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
        const r = await call(api.admin.logs.app.get({ query: { level, after: last.current } }))
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
  return { level, setLevel, live, setLive, lines, failed, box }
}
