// Admin → Dashboard, fetching and state: the two switches (emergency pause, maintenance mode) and
// their toasts, the KPIs (every 5 min), System Health, System Resources and Recent Activity (every
// 30 s; activity also on each settings.changed). The page (../Dashboard.tsx) and its sections
// (./CriticalControls.tsx, ./Cards.tsx) only render. Server end: src/admin/dashboard/.
import { useEffect, useState } from 'react'
import type { SettingName } from '../../../../src/contract/events'
import { api, ApiError, call, type Answer } from '../../../client'
import { loadSystemSettings, putSystemSetting, systemSettings, usePolling, wireSystemSettings } from '../../../admin'
import { onMessage } from '../../../realtime'
import { errorToast, toast } from '../../../toast'

export const HEALTH_REFRESH_MS = 30_000
export const KPI_REFRESH_MS = 5 * 60_000

// The answers' shapes are the server's own (src/admin/dashboard/ through the typed client), not copies.
export type Health = Answer<typeof api.admin.health.get>
export type Kpis = Answer<typeof api.admin.kpis.get>
export type Resources = Answer<typeof api.admin.resources.get>
export type Activity = Answer<typeof api.admin.activity.get>[number]

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

export const useKpis = () => usePolling(() => call(api.admin.kpis.get()), KPI_REFRESH_MS)
export const useHealth = () => usePolling(() => call(api.admin.health.get()), HEALTH_REFRESH_MS)
export const useResources = () => usePolling(() => call(api.admin.resources.get()), HEALTH_REFRESH_MS)

export function useRecentActivity() {
  const a = usePolling(() => call(api.admin.activity.get({ query: { limit: 15 } })), HEALTH_REFRESH_MS)

  const { reload } = a
  useEffect(() => onMessage('settings.changed', () => reload()), [])
  return a
}
