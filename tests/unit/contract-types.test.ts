// One typed HTTP contract (issue 28 §4): the UI reads the server's answers through Eden Treaty typed
// from the server's `App` (ui/client.ts), so a server answer that changes shape breaks the UI's build.
//
// Two proofs. The type assertions below are checked by `tsc --noEmit` (tests/ is in the project): the
// answers are the server's own types (not any), and request fields are typed as the server validates
// them. The test copies src/ and ui/ aside, changes what one handler answers (PUT
// /api/admin/settings/:name: `active` renamed) and runs tsc on the copy: it must fail in ui/admin.ts,
// which reads `active`, while the server side of the copy still compiles.
import { describe, expect, test } from 'bun:test'
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { api, Answer } from '../../ui/client'

// --- type level (checked by tsc, nothing to run) --------------------------------------------------
type IsAny<T> = 0 extends 1 & T ? true : false
type NotAny<T> = IsAny<T> extends false ? true : never
const typed: NotAny<Answer<typeof api.me.get>>[] = [true]
const typedAdmin: [NotAny<Answer<typeof api.admin.kpis.get>>, NotAny<Answer<typeof api.admin.users.get>>, NotAny<Answer<typeof api.admin.scanner.get>>] = [
  true,
  true,
  true,
]

// The answer of PUT /api/admin/settings/:name is the handler's {name, active}.
const setting: Answer<ReturnType<typeof api.admin.settings>['put']> = { name: 'is_emergency_paused', active: true }
// @ts-expect-error a field the server does not answer
const notAnswered: boolean = setting.enabled

// List-of-strings request fields are their members (src/lib/one-of.ts), not never.
type Prefs = Parameters<typeof api.notifications.preferences.put>[0]
const prefs: Prefs = { email_frequency: 'instant' }
// @ts-expect-error not a frequency the server accepts
const badPrefs: Prefs = { email_frequency: 'hourly' }

// A message's state is one of three (the admin page's labels are keyed by it).
type State = Answer<typeof api.admin.feedback.get>['messages'][number]['state']
const state: State = 'resolved'
// @ts-expect-error not a state
const badState: State = 'archived'

// --- a changed answer breaks the UI's build ----------------------------------------------------------
const root = join(import.meta.dir, '../..')
const HANDLER = 'src/admin/dashboard/routes.ts'
const MODELS = 'src/admin/models.ts'
const MODEL_LINE = 'export const AdminSettingsNameResponse = t.Object({ name: SettingNameModel, active: t.Boolean() })'

describe('the typed contract', () => {
  test('the type assertions are about real types', () => {
    expect([...typed, ...typedAdmin, setting.active, notAnswered, prefs.email_frequency, badPrefs, state, badState]).toHaveLength(10)
  })

  test('renaming a field of a server answer fails tsc in the UI that reads it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'dibs-contract-'))
    try {
      for (const part of ['src', 'ui']) cpSync(join(root, part), join(dir, part), { recursive: true })
      symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'), 'dir')
      const tsconfig = JSON.parse(readFileSync(join(root, 'tsconfig.json'), 'utf8'))
      // Only the UI module that reads the answer: tsc follows its imports into the server (ui/client.ts → src/app.ts).
      writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ ...tsconfig, include: ['ui/admin.ts', 'src/assets.d.ts'] }))
      const source = readFileSync(join(dir, HANDLER), 'utf8')
      expect(source).toContain('return { name, active }')
      writeFileSync(join(dir, HANDLER), source.replace('return { name, active }', 'return { name, enabled: active }'))
      // the server's change made whole: its answer's model (the OpenAPI document) says the new name too
      const models = readFileSync(join(dir, MODELS), 'utf8')
      expect(models).toContain(MODEL_LINE)
      writeFileSync(join(dir, MODELS), models.replace(MODEL_LINE, MODEL_LINE.replace('active: t.Boolean()', 'enabled: t.Boolean()')))

      const run = Bun.spawnSync([join(root, 'node_modules/.bin/tsc'), '--noEmit', '-p', join(dir, 'tsconfig.json')], { cwd: dir })
      const out = run.stdout.toString() + run.stderr.toString()
      const errors = out.split('\n').filter((l) => /error TS\d+/.test(l))
      expect(run.exitCode).not.toBe(0)
      expect(errors.length).toBeGreaterThan(0)
      // every error is the UI's: the server's own change is valid, the UI's reading of it is not
      for (const e of errors) expect(e).toStartWith('ui/admin.ts')
      expect(out).toContain("Property 'active' does not exist")
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }, 180_000)
})
