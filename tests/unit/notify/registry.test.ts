// The channel registry's promise: adding a provider is one file plus one line in PROVIDERS. So every
// registered provider must have a label, a validation, a request (what 'Send test' and alerts send),
// and a scenario test against a fake of its real API (a `describe('<kind>')` block that presses 'Send
// test', with tests/fakes/<kind>.ts); and nothing outside the registry may list the kinds again.
import { describe, expect, test } from 'bun:test'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { Glob } from 'bun'
import { PROVIDERS, channelLabel, providerOf } from '../../../src/outbox/channels/registry'
import { testAlert } from '../../../src/notify/external'
import { makeConfig } from '../../helpers'

const root = join(import.meta.dir, '../../..')
const SCENARIO_FILES = ['tests/api/notify-channels.test.ts', 'tests/api/notify-providers.test.ts'].map((f) => readFileSync(join(root, f), 'utf8'))
/** a provider's fake is tests/fakes/<kind>.ts, except the webhook's receiver */
const FAKE_FILE: Record<string, string> = { webhook: 'webhook-receiver' }

/** The text of the `describe('<kind>', …)` block (to the next top-level describe). */
function describeBlock(kind: string): string | null {
  for (const src of SCENARIO_FILES) {
    const m = new RegExp(`^describe\\('${kind}'`, 'im').exec(src)
    if (!m) continue
    const rest = src.slice(m.index + 1)
    const next = rest.search(/^describe\(/m)
    return next === -1 ? rest : rest.slice(0, next)
  }
  return null
}

describe('every registered provider', () => {
  test('kinds are unique, lower-case words', () => {
    const kinds = PROVIDERS.map((p) => p.kind)
    expect(new Set(kinds).size).toBe(kinds.length)
    for (const k of kinds) expect(k).toMatch(/^[a-z][a-z0-9]*$/)
  })

  for (const p of PROVIDERS) {
    describe(p.kind, () => {
      test('has a label, a setup line, fields and a validation', () => {
        expect(p.label.length).toBeGreaterThan(1)
        expect(channelLabel(p.kind)).toBe(p.label)
        expect(p.setup.length).toBeGreaterThan(20)
        expect(Array.isArray(p.fields)).toBe(true)
        for (const f of p.fields) expect(f.label.length).toBeGreaterThan(1)
        expect(typeof p.validate).toBe('function')
        expect(providerOf(p.kind)).toBe(p as never)
      })

      test("its validation names the field it refuses; its request ('Send test', alerts) is a real HTTP request", async () => {
        const config = makeConfig({ TELEGRAM_BOT_TOKEN: '1:x', PUSHOVER_APP_TOKEN: 'a'.repeat(30), APPRISE_URL: 'https://apprise.example.com' })
        const required = p.fields.filter((f) => f.required)
        if (required.length > 0) {
          const err = await p.validate({ config }, {}).then(
            () => null,
            (e: { status?: number; details?: { field?: string } }) => e,
          )
          expect(err?.status).toBe(400)
          expect(required.map((f) => f.name)).toContain(err!.details!.field!)
        }
        const ep = {
          id: 1,
          userId: 1,
          kind: p.kind,
          name: '',
          url: 'https://example.com/x',
          secret: 'sekret',
          options: { roomId: '!r:x', chatId: 1 },
          createdAt: new Date(),
          lastResult: null,
          lastResultAt: null,
        }
        const req = p.request({ config, now: () => new Date(), db: null as never }, ep, testAlert(config, new Date()), 'test:1:1')
        expect(['POST', 'PUT']).toContain(req.method)
        expect(URL.canParse(req.url)).toBe(true)
        expect(req.body.length).toBeGreaterThan(10)
      })

      test("has a fake of its real API and a scenario test that presses 'Send test'", () => {
        expect(existsSync(join(root, 'tests/fakes', `${FAKE_FILE[p.kind] ?? p.kind}.ts`))).toBe(true)
        const block = describeBlock(p.kind)
        expect(block).not.toBeNull()
        expect(block!).toMatch(/\/api\/notifications\/channels\/\$\{[^}]+\}\/test/)
      })
    })
  }
})

test('no file outside the registry lists the kinds again (one place to add a provider)', () => {
  const offenders: string[] = []
  for (const file of new Glob('{src,ui}/**/*.{ts,tsx}').scanSync({ cwd: root })) {
    if (file.startsWith('src/outbox/channels/')) continue
    const src = readFileSync(join(root, file), 'utf8')
    // a literal map or list naming two providers' kinds, e.g. { webhook: 'Webhook', ntfy: … } or ['webhook', 'ntfy']
    if (/\bwebhook['"]?\s*[:,]\s*['"]?[\w ]*['"]?\s*,\s*['"]?ntfy\b/.test(src)) offenders.push(file)
  }
  expect(offenders).toEqual([])
})
