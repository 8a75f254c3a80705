// Runtime scan settings (Logs page): the scan interval (or adaptive) and the most Reddit requests
// per minute, stored in system_settings as `scan_settings` and applied to the process's rate
// budget at once — no restart. Without a stored row the environment decides
// (SCAN_INTERVAL_SECONDS, the mode's cap). The spec's "active instances" input is left out: one
// Dibs process scans, so there is nothing to set.
import type { Deps } from '../../deps'
import { badRequest } from '../../lib/errors'
import type { WithSource } from '../../scanner/source'
import { replaceSetting, storedSetting, storedSettingAtStartSqlite, storeSetting } from '../../settings/service'

export const SCAN_SETTINGS = 'scan_settings'
export const MAX_INTERVAL_SECONDS = 3600

export type ScanSettingsInput = { intervalSeconds: number | null; maxRequestsPerMinute: number }

export type ScanSettingsView = ScanSettingsInput & {
  /** where the values come from: the admin's stored row or the environment */
  source: 'stored' | 'environment'
  mode: string | null
  /** the most this mode allows per minute (10 public, 100 OAuth) */
  modeCapPerMinute: number | null
  /** the fastest interval the current cap allows, in seconds */
  minIntervalSeconds: number | null
  updatedAt: string | null
  /** false for a source without a rate budget (the demo forum): nothing to set */
  applicable: boolean
}

type Stored = { active: boolean; intervalSeconds: number | null; maxRequestsPerMinute: number }

async function readStored(deps: Pick<Deps, 'db'>): Promise<{ value: Stored; updatedAt: Date | null } | null> {
  return storedScan(await storedSetting(deps, SCAN_SETTINGS))
}

function storedScan(row: Awaited<ReturnType<typeof storedSetting>>): { value: Stored; updatedAt: Date | null } | null {
  if (!row || row.value.active !== true) return null
  return { value: row.value as unknown as Stored, updatedAt: row.updatedAt }
}

/** The fastest interval (s) a cap allows: the cap spread over a minute less the budget's headroom. */
export function minIntervalFor(capPerMinute: number, headroom = 0.2): number {
  return Math.ceil(60_000 / (capPerMinute * (1 - headroom))) / 1000
}

/** Checks an admin's input against the mode; returns the error message or null. */
export function validateScanSettings(input: ScanSettingsInput, modeCap: number, mode: string, headroom = 0.2): string | null {
  const cap = input.maxRequestsPerMinute
  if (!Number.isInteger(cap) || cap < 1 || cap > modeCap)
    return `Max Reddit requests per minute must be a whole number from 1 to ${modeCap} (${mode} mode allows ${modeCap}).`
  if (input.intervalSeconds === null) return null
  const min = minIntervalFor(cap, headroom)
  if (!Number.isFinite(input.intervalSeconds) || input.intervalSeconds < min || input.intervalSeconds > MAX_INTERVAL_SECONDS)
    return `Scan interval must be between ${min} and ${MAX_INTERVAL_SECONDS} seconds at ${cap} requests per minute, or adaptive.`
  return null
}

export async function scanSettings(deps: Pick<Deps, 'db' | 'config'> & WithSource): Promise<ScanSettingsView> {
  const b = deps.source.budget
  const stored = await readStored(deps)
  if (!b)
    return {
      intervalSeconds: deps.config.scanIntervalSeconds,
      maxRequestsPerMinute: 0,
      source: 'environment',
      mode: deps.source.mode ?? null,
      modeCapPerMinute: null,
      minIntervalSeconds: null,
      updatedAt: null,
      applicable: false,
    }
  return {
    intervalSeconds: b.intervalSeconds,
    maxRequestsPerMinute: b.capPerMinute,
    source: stored ? 'stored' : 'environment',
    mode: deps.source.mode ?? null,
    modeCapPerMinute: b.modeCapPerMinute,
    minIntervalSeconds: minIntervalFor(b.capPerMinute, b.headroom),
    updatedAt: stored?.updatedAt?.toISOString() ?? null,
    applicable: true,
  }
}

/** Validates, stores and applies; 400 with the reason when the input does not fit the mode. */
export async function saveScanSettings(deps: Pick<Deps, 'db' | 'config' | 'now'> & WithSource, input: ScanSettingsInput): Promise<ScanSettingsView> {
  const b = deps.source.budget
  if (!b) throw badRequest('This forum source has no Reddit rate budget (demo forum): scan settings do not apply.', 'NOT_APPLICABLE')
  const error = validateScanSettings(input, b.modeCapPerMinute, deps.source.mode ?? 'this', b.headroom)
  if (error !== null) throw badRequest(error, 'INVALID_SCAN_SETTINGS')
  const value: Stored = { active: true, intervalSeconds: input.intervalSeconds, maxRequestsPerMinute: input.maxRequestsPerMinute }
  const now = deps.now()
  await storeSetting(deps, SCAN_SETTINGS, value, 'Runtime scan settings: interval (null = adaptive) and max Reddit requests per minute', now)
  b.configure({ capPerMinute: input.maxRequestsPerMinute, intervalSeconds: input.intervalSeconds })
  return scanSettings(deps)
}

/** Back to the environment's values: the stored row is switched off and the budget reset. */
export async function resetScanSettings(deps: Pick<Deps, 'db' | 'config' | 'now'> & WithSource): Promise<ScanSettingsView> {
  const now = deps.now()
  await replaceSetting(deps, SCAN_SETTINGS, { active: false }, now)
  deps.source.budget?.configure({ capPerMinute: deps.source.budget.modeCapPerMinute, intervalSeconds: deps.config.scanIntervalSeconds })
  return scanSettings(deps)
}

/** At startup (the admin routes are built once per server): the stored settings take effect. */
export function applyStoredScanSettings(deps: Pick<Deps, 'db'> & WithSource): void {
  const b = deps.source.budget
  const stored = storedScan(storedSettingAtStartSqlite(deps, SCAN_SETTINGS))
  if (!b || !stored) return
  b.configure({ capPerMinute: stored.value.maxRequestsPerMinute, intervalSeconds: stored.value.intervalSeconds })
}
