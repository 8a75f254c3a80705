// Admin → Dashboard, fetching and state: the two switches (emergency pause, maintenance mode) and
// their toasts, the KPIs (every 5 min), System Health, System Resources and Recent Activity (every
// 30 s; activity also on each settings.changed). The page (../Dashboard.tsx) and its sections
// (./CriticalControls.tsx, ./Cards.tsx) only render. Server end: src/admin/dashboard/.
import { useEffect, useState } from 'react'
import type { SettingName } from '../../../../src/contract/events'
import { api, ApiError } from '../../../api'
import { loadSystemSettings, putSystemSetting, systemSettings, usePolling, wireSystemSettings } from '../../../admin'
import { onMessage } from '../../../realtime'
import { errorToast, toast } from '../../../toast'

export const HEALTH_REFRESH_MS = 30_000
export const KPI_REFRESH_MS = 5 * 60_000

export type Health = {
  posts: number
  users: number
  matches: number
  lastScanAt: string | null
  status: 'healthy' | 'warning' | 'critical'
  minutesSinceLastScan: number | null
  performance: number
  emailQueuePending: number
  emailQueueColour: 'green' | 'yellow' | 'red'
  source?: { state: string; reason: string | null; since: string | null } | null
  forumNotice?: string | null
  coverageGaps?: { count: number; seconds: number }
}
export type Kpis = {
  matchesToday: number
  matchesYesterday: number
  usersMatched24h: number
  postsToday: number
  totalUsers: number
  activeOrTrialing: number
  trialUsers: number
  paidUsers: number
  conversionRate: number | null
  matchesGrowthPercent: number | null
}
export type Resources = {
  uptimeSeconds: number
  memory: { rssBytes: number; heapUsedBytes: number; heapTotalBytes: number }
  eventLoopLag: { lastMs: number | null; meanMs: number | null; maxMs: number | null; windowSeconds: number }
  database: { fileBytes: number; walBytes: number }
  openSockets: number
  outbox: { pending: number; sending: number }
  reddit: {
    mode: string | null
    requestsLastMinute: number | null
    allowedPerMinute: number | null
    blockedUntil: string | null
    blockedReason: string | null
    last429At: string | null
  }
  scanInterval: { ms: number; adaptive: boolean }
  alertLatency24h: { samples: number; p50Ms: number | null; p95Ms: number | null }
}
export type Activity = { at: string; kind: 'admin' | 'job' | 'scan'; text: string; status: string; actor: string | null }

/** The switches' settings, loaded once and kept live (settings.changed); null until loaded. */
export function useSystemSettings() {
  useEffect(() => {
    wireSystemSettings()
    loadSystemSettings().catch((err) => {
      if (err instanceof ApiError) {
        errorToast('Failed to fetch emergency pause status')
        errorToast('Failed to fetch maintenance mode status')
      } else errorToast('An unexpected error occurred')
    })
  }, [])
  return systemSettings.value
}

/** Switching the emergency pause or maintenance mode, with the spec's toasts; `busy` names the one in flight. */
export function useSwitches() {
  const [busy, setBusy] = useState<SettingName | null>(null)
  const save = async (name: SettingName, active: boolean) => {
    setBusy(name)
    try {
      await putSystemSetting(name, active)
      if (name === 'is_emergency_paused')
        toast(
          active
            ? { title: 'EMERGENCY PAUSE ACTIVATED', description: 'All system operations are now paused', variant: 'destructive' }
            : { title: 'Emergency Pause Deactivated', description: 'System operations have been resumed' },
        )
      else
        toast(
          active
            ? { title: 'Maintenance Mode Enabled', description: 'System is now in maintenance mode' }
            : { title: 'Maintenance Mode Disabled', description: 'System maintenance mode has been disabled' },
        )
    } catch (err) {
      errorToast(
        err instanceof ApiError
          ? name === 'is_emergency_paused'
            ? 'Failed to update emergency pause status'
            : 'Failed to update maintenance mode status'
          : 'An unexpected error occurred',
      )
    } finally {
      setBusy(null)
    }
  }

  return { busy, save }
}

export const useKpis = () => usePolling(() => api<Kpis>('/api/admin/kpis'), KPI_REFRESH_MS)
export const useHealth = () => usePolling(() => api<Health>('/api/admin/health'), HEALTH_REFRESH_MS)
export const useResources = () => usePolling(() => api<Resources>('/api/admin/resources'), HEALTH_REFRESH_MS)

export function useRecentActivity() {
  const a = usePolling(() => api<Activity[]>('/api/admin/activity?limit=15'), HEALTH_REFRESH_MS)
  const { reload } = a
  useEffect(() => onMessage('settings.changed', () => reload()), [])
  return a
}
