// System settings (spec system_settings): emergency pause and maintenance mode. Read by the
// scanner, the matcher and the notifier; written by admins. A missing row reads as inactive and is
// created with active false on first write.
import { eq, inArray } from 'drizzle-orm'
import type { SettingName } from '../contract/events'
import type { OwnerDb } from '../db/async-db'
import { asAsync } from '../db/async-sqlite'
import { systemSettings } from '../db/schema'
import type { Deps } from '../deps'

export type { SettingName }

export const SETTINGS: Record<SettingName, string> = {
  is_emergency_paused: 'Emergency pause: stops scanning, matching and alerting while on',
  is_maintenance_mode_active: 'Maintenance mode: signed-in non-admins see a maintenance page and get 503 from the API; scanning and alerts go on',
}

export function isSettingName(name: string): name is SettingName {
  return name in SETTINGS
}

export async function getSetting(deps: OwnerDb, name: SettingName): Promise<boolean> {
  const row = (await asAsync(deps.db).select().from(systemSettings).where(eq(systemSettings.name, name)).limit(1))[0]
  return row?.value?.active === true
}

export async function setSetting(deps: OwnerDb & Pick<Deps, 'bus' | 'now'>, name: SettingName, active: boolean): Promise<boolean> {
  const now = deps.now()
  await asAsync(deps.db)
    .insert(systemSettings)
    .values({ name, value: { active }, description: SETTINGS[name], updatedAt: now })
    .onConflictDoUpdate({ target: systemSettings.name, set: { value: { active }, updatedAt: now } })
  deps.bus.emit('settings.changed', { name, active })
  return active
}

/** Both switches, for the admin dashboard; a missing row is created with active false (spec §4). */
export async function readSettings(deps: OwnerDb & Pick<Deps, 'now'>): Promise<Record<SettingName, boolean>> {
  const db = asAsync(deps.db)
  const names = Object.keys(SETTINGS) as SettingName[]
  const now = deps.now()
  await db
    .insert(systemSettings)
    .values(names.map((name) => ({ name, value: { active: false }, description: SETTINGS[name], updatedAt: now })))
    .onConflictDoNothing({ target: systemSettings.name })
  const rows = await db.select().from(systemSettings).where(inArray(systemSettings.name, names))
  return Object.fromEntries(names.map((n) => [n, rows.find((r) => r.name === n)?.value?.active === true])) as Record<SettingName, boolean>
}

export function isPaused(deps: OwnerDb): Promise<boolean> {
  return getSetting(deps, 'is_emergency_paused')
}

type SettingValue = (typeof systemSettings.$inferSelect)['value']

/** A stored setting other than the two switches (e.g. 'scan_settings'), as stored, or undefined. */
export async function storedSetting(deps: OwnerDb, name: string): Promise<{ value: SettingValue; updatedAt: Date | null } | undefined> {
  const [row] = await asAsync(deps.db).select().from(systemSettings).where(eq(systemSettings.name, name)).limit(1)
  return row ? { value: row.value, updatedAt: row.updatedAt } : undefined
}

/**
 * storedSetting at the start of a process, synchronous on SQLite: START-UP ONLY, for the wiring that cannot
 * await yet (src/services.ts createServices: the SourceRunner's constructor, seedSources; the admin routes'
 * applyStoredScanSettings and applyStoredForumPreset). It moves to storedSetting when start-up can await.
 */
export function storedSettingAtStartSqlite(deps: Pick<Deps, 'db'>, name: string): { value: SettingValue; updatedAt: Date | null } | undefined {
  const row = deps.db.select().from(systemSettings).where(eq(systemSettings.name, name)).get()
  return row ? { value: row.value, updatedAt: row.updatedAt } : undefined
}

/** Stores a setting's value: a new row with its description, or the existing row's value and time. */
export async function storeSetting(deps: OwnerDb, name: string, value: SettingValue, description: string, at: Date): Promise<void> {
  await asAsync(deps.db)
    .insert(systemSettings)
    .values({ name, value, description, updatedAt: at })
    .onConflictDoUpdate({ target: systemSettings.name, set: { value, updatedAt: at } })
}

/** storeSetting at the start of a process, synchronous on SQLite: START-UP ONLY (seedSources, inside its synchronous transaction in createServices). */
export function storeSettingAtStartSqlite(deps: Pick<Deps, 'db'>, name: string, value: SettingValue, description: string, at: Date): void {
  deps.db
    .insert(systemSettings)
    .values({ name, value, description, updatedAt: at })
    .onConflictDoUpdate({ target: systemSettings.name, set: { value, updatedAt: at } })
    .run()
}

/** Replaces an existing setting's value (no row is created). */
export async function replaceSetting(deps: OwnerDb, name: string, value: SettingValue, at: Date): Promise<void> {
  await asAsync(deps.db).update(systemSettings).set({ value, updatedAt: at }).where(eq(systemSettings.name, name))
}
