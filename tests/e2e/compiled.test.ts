// The single executable embeds the UI and migrations and runs from any working directory.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { tempDir } from '../helpers'
import { UPLOT_CSS, UPLOT_JS } from '../../ui/vendor-urls'

const root = join(import.meta.dir, '../..')

describe('compiled single executable', () => {
  const outDir = tempDir('dibs-compiled-')
  const exe = join(outDir, 'dibs')
  const elsewhere = tempDir('dibs-cwd-')
  let proc: ReturnType<typeof Bun.spawn> | null = null
  let base = ''

  beforeAll(async () => {
    const build = Bun.spawnSync(['bun', 'build', 'src/main.ts', '--compile', '--minify-whitespace', '--minify-syntax', '--outfile', exe], { cwd: root })
    if (build.exitCode !== 0) throw new Error('compile failed: ' + build.stderr.toString())
    const port = 20000 + Math.floor(Math.random() * 20000)
    base = `http://127.0.0.1:${port}`
    proc = Bun.spawn([exe, 'serve'], {
      cwd: elsewhere, // not the repository: nothing may be read from the source tree
      env: { PATH: process.env.PATH ?? '', DATA_DIR: join(elsewhere, 'data'), PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
      stdout: 'pipe',
      stderr: 'pipe',
    })
    for (let i = 0; i < 100; i++) {
      try {
        if ((await fetch(base + '/healthz')).ok) return
      } catch {}
      await Bun.sleep(100)
    }
    throw new Error('compiled server did not start')
  }, 120_000)

  afterAll(async () => {
    proc?.kill('SIGTERM')
    await proc?.exited
  })

  test('serves / and /healthz', async () => {
    expect((await fetch(base + '/healthz').then((r) => r.json())).db).toBe('ok')
    const html = await fetch(base + '/').then((r) => r.text())
    expect(html).toContain('<div id="root">')
  })

  test('serves a deep client route and every asset it references', async () => {
    const html = await fetch(base + '/dashboard/gafs/wts').then((r) => r.text())
    expect(html).toContain('<div id="root">')
    const assets = [...html.matchAll(/(?:src|href)="(\/[^"]+)"/g)].map((m) => m[1]!)
    expect(assets.length).toBeGreaterThan(1)
    for (const a of assets) {
      const res = await fetch(base + a)
      expect(res.status, a).toBe(200)
    }
    // uPlot (loaded on demand by the admin charts) is embedded too
    for (const a of [UPLOT_JS, UPLOT_CSS]) expect((await fetch(base + a).then((r) => r.text())).length, a).toBeGreaterThan(1000)
  })

  test('`dibs --help` lists the commands', () => {
    const out = Bun.spawnSync([exe, '--help'], { cwd: elsewhere }).stdout.toString()
    for (const c of ['serve', 'migrate', 'backup']) expect(out).toContain(`dibs ${c}`)
  })

  test('SIGTERM stops it cleanly within 10 s', async () => {
    const started = Date.now()
    proc!.kill('SIGTERM')
    const code = await proc!.exited
    expect(code).toBe(0)
    expect(Date.now() - started).toBeLessThan(10_000)
    proc = null
  })
})
