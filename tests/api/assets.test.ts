// Issue 12 items 15 and 17: the UI's assets compressed per Accept-Encoding with year-long caching
// for hashed names, the first load under 150 KB on the wire, and the PWA manifest and page title
// following APP_NAME.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { brotliDecompressSync } from 'node:zlib'
import { pickEncoding } from '../../src/web/pages'
import { UPLOT_CSS, UPLOT_JS } from '../../ui/vendor-urls'
import { startTestServer } from '../helpers'

describe('pickEncoding', () => {
  const cases: [string | null, ReturnType<typeof pickEncoding>][] = [
    ['gzip, deflate, br, zstd', 'br'],
    ['gzip', 'gzip'],
    ['br;q=0, gzip', 'gzip'],
    ['*', 'br'],
    ['identity', 'identity'],
    [null, 'identity'],
    ['gzip;q=0', 'identity'],
  ]
  for (const [header, want] of cases) test(`${header} → ${want}`, () => expect(pickEncoding(header)).toBe(want))
})

describe('the bundled UI on the wire', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let assets: string[]
  beforeAll(async () => {
    server = await startTestServer({ APP_NAME: 'Rifle Alerts' })
    const html = await (await fetch(server.url + '/')).text()
    assets = [...html.matchAll(/(?:src|href)="(\/[^"]+)"/g)].map((m) => m[1]!)
  })
  afterAll(async () => {
    await server?.stop()
  })

  /** Raw bytes as sent (Bun's fetch would decompress on its own). */
  async function raw(path: string, encoding: string) {
    const r = await fetch(server.url + path, { headers: { 'accept-encoding': encoding }, decompress: false } as RequestInit)
    return { r, bytes: new Uint8Array(await r.arrayBuffer()) }
  }

  test('JS and CSS go out brotli or gzip as accepted, byte-identical once decoded, cached for a year', async () => {
    for (const path of assets.filter((a) => /\.(js|css)$/.test(a))) {
      const plain = await raw(path, 'identity')
      expect(plain.r.headers.get('content-encoding')).toBeNull()
      const br = await raw(path, 'gzip, deflate, br')
      expect(br.r.headers.get('content-encoding')).toBe('br')
      expect(br.r.headers.get('vary')).toBe('accept-encoding')
      expect(br.r.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
      expect(Buffer.from(brotliDecompressSync(br.bytes)).equals(Buffer.from(plain.bytes))).toBe(true)
      expect(br.bytes.byteLength).toBeLessThan(plain.bytes.byteLength / 2)
      const gz = await raw(path, 'gzip')
      expect(gz.r.headers.get('content-encoding')).toBe('gzip')
      expect(Buffer.from(Bun.gunzipSync(gz.bytes)).equals(Buffer.from(plain.bytes))).toBe(true)
      expect(gz.r.headers.get('etag')).not.toBe(br.r.headers.get('etag'))
    }
  })

  test('uPlot is its own file, not in the first load: compressed, cached for a year, revalidated by ETag', async () => {
    expect(assets).not.toContain(UPLOT_JS)
    // 'u-cursor-pt' is a class name only uPlot's code writes
    for (const path of assets.filter((a) => /\.(js|css)$/.test(a)))
      expect(new TextDecoder().decode((await raw(path, 'identity')).bytes).includes('u-cursor-pt')).toBe(false)
    for (const [path, type] of [
      [UPLOT_JS, 'text/javascript'],
      [UPLOT_CSS, 'text/css'],
    ]) {
      const plain = await raw(path!, 'identity')
      expect(plain.r.status).toBe(200)
      expect(plain.r.headers.get('content-type')).toStartWith(type!)
      const br = await raw(path!, 'br')
      expect(br.r.headers.get('content-encoding')).toBe('br')
      expect(br.r.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
      expect(br.r.headers.get('x-content-type-options')).toBe('nosniff')
      expect(Buffer.from(brotliDecompressSync(br.bytes)).equals(Buffer.from(plain.bytes))).toBe(true)
      const again = await fetch(server.url + path, { headers: { 'accept-encoding': 'br', 'if-none-match': br.r.headers.get('etag')! } })
      expect(again.status).toBe(304)
    }
    expect(new TextDecoder().decode((await raw(UPLOT_JS, 'identity')).bytes).includes('u-cursor-pt')).toBe(true)
  })

  test("the term parser, the matcher's dictionary and the location table stay on the server", async () => {
    const js = (await Promise.all(assets.filter((a) => a.endsWith('.js')).map(async (a) => new TextDecoder().decode((await raw(a, 'identity')).bytes)))).join(
      '\n',
    )
    expect(js.length).toBeGreaterThan(100_000)
    // a parser message, a dictionary alias's reason, a location table entry: none of them is the web app's
    for (const marker of ['Unknown location', 'compound brand spellings', 'Newfoundland'])
      expect({ marker, inBundle: js.includes(marker) }).toEqual({ marker, inBundle: false })
  })

  test('the first load (page + every asset it names) transfers under 150 KB with brotli', async () => {
    let total = (await raw('/', 'br')).bytes.byteLength
    for (const path of assets) total += (await raw(path, 'br')).bytes.byteLength
    console.log(`first load on the wire: ${(total / 1024).toFixed(1)} KB`)
    expect(total).toBeLessThan(150 * 1024)
  })

  test('the manifest and the page title follow APP_NAME', async () => {
    const manifestPath = assets.find((a) => a.includes('manifest'))!
    const m = (await (await fetch(server.url + manifestPath)).json()) as { name: string; short_name: string }
    expect(m.name).toBe('Rifle Alerts')
    expect(m.short_name).toBe('Rifle Alerts')
    expect(await (await fetch(server.url + '/login')).text()).toContain('<title>Rifle Alerts</title>')
  })
})
