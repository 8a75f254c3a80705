// The restore point in system_settings (src/settings/restore-point.ts, owner of the table; written for
// src/db/restore.ts through src/services.ts restoreStore): absent reads null, it only moves forward.
import { afterEach, expect, test } from 'bun:test'
import { recordRestorePoint, restorePointAt } from '../../../src/settings/restore-point'
import { makeDeps, type TestDeps } from '../../helpers'

let deps: TestDeps | null = null
afterEach(() => {
  deps?.close()
  deps = null
})

test('never restored: null; recorded: its time; an earlier one later is refused, a later one moves it', async () => {
  deps = makeDeps()
  expect(await restorePointAt(deps)).toBeNull()
  expect(await recordRestorePoint(deps, { at: 2000, restoredAt: 5000, how: 'dibs restore' })).toBe(true)
  expect(await restorePointAt(deps)).toBe(2000)
  expect(await recordRestorePoint(deps, { at: 1000, restoredAt: 6000, how: 'detected' })).toBe(false)
  expect(await recordRestorePoint(deps, { at: 2000, restoredAt: 6000, how: 'detected' })).toBe(false)
  expect(await restorePointAt(deps)).toBe(2000)
  expect(await recordRestorePoint(deps, { at: 3000, restoredAt: 7000, how: 'detected' })).toBe(true)
  const row = deps.sqlite.query<{ value: string; updated_at: number }, []>("SELECT value, updated_at FROM system_settings WHERE name = 'restore_point'").get()!
  expect(JSON.parse(row.value)).toEqual({ active: true, at: 3000, restoredAt: 7000, how: 'detected' })
  expect(row.updated_at).toBe(7000)
})

test('a value that is not JSON reads as no restore point', async () => {
  deps = makeDeps()
  deps.sqlite.run("INSERT INTO system_settings (name, value, description, updated_at) VALUES ('restore_point', 'not json', NULL, 0)")
  expect(await restorePointAt(deps)).toBeNull()
})

test('two restore points recorded at once: the later stands, the earlier is refused (read and written in one transaction)', async () => {
  deps = makeDeps()
  const results = await Promise.all([
    recordRestorePoint(deps, { at: 2000, restoredAt: 5000, how: 'detected' }),
    recordRestorePoint(deps, { at: 1000, restoredAt: 5000, how: 'detected' }),
  ])
  expect(results).toEqual([true, false])
  expect(await restorePointAt(deps)).toBe(2000)
})
