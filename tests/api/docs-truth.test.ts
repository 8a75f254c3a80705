// The docs stay true: every variable src/config.ts reads is on docs/configuration.md with its default,
// every route the app registers is in the OpenAPI document or on docs/api.md, every CLI command is on
// docs/cli.md with its usage, the Layout block of docs/development.md names every folder of src/, and the
// README stays a first-ten-minutes page (at most 250 lines) whose links all resolve.
import { describe, expect, test } from 'bun:test'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { commands } from '../../src/commands'
import { call, makeApp, makeDeps } from '../helpers'

const root = join(import.meta.dir, '../..')
const read = (p: string) => readFileSync(join(root, p), 'utf8')

describe('the docs are true', () => {
  test('every variable config.ts reads is on docs/configuration.md, in a table row with a default', () => {
    const names = [...new Set([...read('src/config.ts').matchAll(/\(env, '([A-Z][A-Z0-9_]+)'/g)].map((m) => m[1]!))]
    expect(names.length).toBeGreaterThan(30)
    const page = read('docs/configuration.md')
    const missing = names.filter((n) => {
      const row = page.split('\n').find((l) => l.startsWith('|') && l.includes(`\`${n}\``))
      return !row || row.split('|').length < 4 || row.split('|')[2]!.trim() === ''
    })
    expect(missing).toEqual([])
  })

  test('every route the app registers is in the OpenAPI document or on docs/api.md', async () => {
    const deps = await makeDeps()
    try {
      const app = makeApp(deps)
      const spec = (await call(app, 'GET', '/api/docs/json')).body as { paths: Record<string, Record<string, unknown>> }
      const documented = new Set(
        Object.entries(spec.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`)),
      )
      const page = read('docs/api.md')
      const missing = app.routes
        .filter((r) => r.method !== 'HEAD' && r.method !== 'OPTIONS')
        .map((r) => `${r.method} ${r.path}`)
        .filter((r) => !documented.has(r) && !page.includes(`\`${r}\``) && !page.includes(`\`${r.split(' ')[1]}\``))
      expect(missing).toEqual([])
    } finally {
      deps.close()
    }
  })

  test('every CLI command is on docs/cli.md with its usage', () => {
    const page = read('docs/cli.md')
    const missing = commands.map((c) => c.usage.split('\n')[0]!.trim()).filter((usage) => !page.includes(usage))
    expect(missing).toEqual([])
  })

  test('the Layout block names every folder of src/', () => {
    const dev = read('docs/development.md')
    const layout = dev.slice(dev.indexOf('## Layout'), dev.indexOf('\n## ', dev.indexOf('## Layout') + 3))
    const folders = readdirSync(join(root, 'src'), { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name)
    expect(folders.filter((f) => !new RegExp(`\\b${f}/`).test(layout))).toEqual([])
  })

  test('the README is at most 250 lines and every relative link of it and of docs/ resolves', () => {
    expect(read('README.md').split('\n').length).toBeLessThanOrEqual(250)
    const pages = [
      'README.md',
      ...readdirSync(join(root, 'docs'))
        .filter((f) => f.endsWith('.md'))
        .map((f) => `docs/${f}`),
    ]
    const broken: string[] = []
    for (const page of pages)
      for (const m of read(page).matchAll(/\]\(([^)\s#]+)(#[^)\s]*)?\)/g)) {
        const target = m[1]!
        if (/^[a-z]+:/.test(target)) continue
        if (!existsSync(join(root, dirname(page), target))) broken.push(`${page} → ${target}`)
      }
    expect(broken).toEqual([])
  })
})
