// Maintenance mode as the app sees it: every /api answer carries `x-maintenance-mode: on` while it
// is on (src/web/maintenance-mode.ts), and ui/client.ts notes it here. <Protected> shows signed-in
// non-admins the maintenance page meanwhile; the page asks again every 30 s.
import { signal } from '@preact/signals-react'

export const MAINTENANCE_HEADER = 'x-maintenance-mode'
export const MAINTENANCE_RECHECK_MS = 30_000

export const maintenanceMode = signal(false)

/** Called by the API client with every /api response. */
export function noteMaintenance(res: Response) {
  const on = res.headers?.get?.(MAINTENANCE_HEADER) === 'on'
  if (maintenanceMode.peek() !== on) maintenanceMode.value = on
}
