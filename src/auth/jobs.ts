// Hourly cleanup: expired sessions and long-expired one-time tokens.
import type { Deps } from '../deps'
import type { Job } from '../jobs/types'
import { deleteOldTokens } from './one-time-tokens'
import { deleteExpiredSessions } from './session'

export async function cleanupAuth(deps: Deps): Promise<{ sessions: number; tokens: number }> {
  return { sessions: await deleteExpiredSessions(deps), tokens: await deleteOldTokens(deps) }
}

export function authJobs(): Job[] {
  return [{ name: 'auth-cleanup', every: 60 * 60 * 1000, run: cleanupAuth }]
}
