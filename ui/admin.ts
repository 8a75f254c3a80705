// Shared state and helpers of the admin pages: the two system switches (emergency pause and
// maintenance mode), kept live from the admin socket topic (`settings.changed`), a polling hook,
// and formatters. The switches' server end is src/admin/dashboard/routes.ts.
import { signal } from '@preact/signals-react'
import { useEffect, useRef, useState } from 'react'
import type { SettingName } from '../src/contract/events'
import { api, call } from './client'
import { onMessage } from './realtime'

export type SystemSettings = Record<SettingName, boolean>

/** null until loaded. */
export const systemSettings = signal<SystemSettings | null>(null)
export const systemSettingsError = signal(false)

let wired = false
/** Follows settings.changed from other admin tabs, the CLI or this one (idempotent). */
export function wireSystemSettings() {
  if (wired) return
  wired = true
  onMessage('settings.changed', ({ name, active }) => {
    systemSettings.value = { ...(systemSettings.value ?? { is_emergency_paused: false, is_maintenance_mode_active: false }), [name]: active }
  })
  onMessage('reconnected', () => void loadSystemSettings().catch(() => {}))
}

export async function loadSystemSettings(): Promise<SystemSettings> {
  try {
    const s: SystemSettings = await call(api.admin.settings.get())
    systemSettings.value = s
    systemSettingsError.value = false
    return s
  } catch (err) {
    systemSettingsError.value = true
    throw err
  }
}

export async function putSystemSetting(name: SettingName, active: boolean): Promise<boolean> {
  const r = await call(api.admin.settings({ name }).put({ active }))
  systemSettings.value = { ...(systemSettings.value ?? { is_emergency_paused: false, is_maintenance_mode_active: false }), [name]: r.active }
  return r.active
}

export type Loadable<T> = { data: T | null; error: unknown; loading: boolean; reload: () => void; updatedAt: number | null }

/** Loads `fn` now and every `everyMs` (0: once); `reload()` asks again at once. Keeps the last data on an error. */
export function usePolling<T>(fn: () => Promise<T>, everyMs: number, deps: unknown[] = []): Loadable<T> {
  const [state, setState] = useState<{ data: T | null; error: unknown; loading: boolean; updatedAt: number | null }>({
    data: null,
    error: null,
    loading: true,
    updatedAt: null,
  })
  const fnRef = useRef(fn)
  fnRef.current = fn
  const [tick, setTick] = useState(0)
  useEffect(() => {
    let alive = true
    const run = () => {
      setState((s) => ({ ...s, loading: true }))
      fnRef.current().then(
        (data) => alive && setState({ data, error: null, loading: false, updatedAt: Date.now() }),
        (error) => alive && setState((s) => ({ ...s, error, loading: false })),
      )
    }
    run()
    const timer = everyMs > 0 ? setInterval(run, everyMs) : null
    return () => {
      alive = false
      if (timer) clearInterval(timer)
    }
  }, [everyMs, tick, ...deps])
  return { ...state, reload: () => setTick((t) => t + 1) }
}

export function formatBytes(n: number | null | undefined): string {
  if (n === null || n === undefined) return '—'
  const units = ['B', 'KB', 'MB', 'GB', 'TB']
  let v = n
  let i = 0
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024
    i++
  }
  return `${v >= 100 || i === 0 ? Math.round(v) : v.toFixed(1)} ${units[i]}`
}

export function formatDuration(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined) return '—'
  if (seconds < 1) return `${Math.round(seconds * 1000)} ms`
  if (seconds < 60) return `${+seconds.toFixed(1)} s`
  const d = Math.floor(seconds / 86400)
  const h = Math.floor((seconds % 86400) / 3600)
  const m = Math.floor((seconds % 3600) / 60)
  if (d > 0) return `${d}d ${h}h`
  if (h > 0) return `${h}h ${m}m`
  return `${m}m ${Math.floor(seconds % 60)}s`
}

export function formatMs(ms: number | null | undefined): string {
  return ms === null || ms === undefined ? '—' : formatDuration(ms / 1000)
}

/** 'Jan 5, 3:04 PM (2m ago)' */
export function formatWhen(iso: string | null | undefined, now = Date.now()): string {
  if (!iso) return 'Never'
  const d = new Date(iso)
  if (Number.isNaN(d.getTime())) return 'Invalid date'
  const abs = d.toLocaleString('en-US', { month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' })
  return `${abs} (${relative(d.getTime(), now)})`
}

export function relative(at: number, now = Date.now()): string {
  const s = Math.round((now - at) / 1000)
  const future = s < 0
  const a = Math.abs(s)
  const text =
    a < 5 ? 'just now' : a < 60 ? `${a}s` : a < 3600 ? `${Math.floor(a / 60)}m` : a < 86400 ? `${Math.floor(a / 3600)}h` : `${Math.floor(a / 86400)}d`
  if (text === 'just now') return text
  return future ? `in ${text}` : `${text} ago`
}

export function errorText(err: unknown): string {
  return err instanceof Error ? err.message : 'An unexpected error occurred'
}
