// Libraries the UI loads on demand instead of bundling (ui/vendor-urls.ts names them): uPlot's
// script and styles, embedded in the executable, sent brotli/gzip like the bundle's own assets
// (src/web/pages.ts) and cached for a year (versioned URLs). ui/uplot.ts injects them.
import { Elysia } from 'elysia'
import { createHash } from 'node:crypto'
import uplotJs from 'uplot/dist/uPlot.iife.min.js' with { type: 'text' }
import uplotCss from 'uplot/dist/uPlot.min.css' with { type: 'text' }
import { UPLOT_CSS, UPLOT_JS } from '../../ui/vendor-urls'
import { encode, pickEncoding, type Encoding } from './pages'

type VendorFile = { type: string; etag: string; bodies: Partial<Record<Encoding, Uint8Array>> }

function vendorFile(source: string, type: string): VendorFile {
  const identity = new TextEncoder().encode(source)
  return { type, etag: `"${createHash('sha256').update(identity).digest('base64url').slice(0, 22)}`, bodies: { identity } }
}

const FILES: Record<string, VendorFile> = {
  [UPLOT_JS]: vendorFile(String(uplotJs), 'text/javascript; charset=utf-8'),
  [UPLOT_CSS]: vendorFile(String(uplotCss), 'text/css; charset=utf-8'),
}

export function vendorResponse(file: VendorFile, request: Request): Response {
  const encoding = pickEncoding(request.headers.get('accept-encoding'))
  const etag = `${file.etag}${encoding === 'identity' ? '' : `-${encoding}`}"`
  const headers: Record<string, string> = { 'content-type': file.type, 'cache-control': 'public, max-age=31536000, immutable', etag, vary: 'accept-encoding' }
  if (request.headers.get('if-none-match') === etag) return new Response(null, { status: 304, headers })
  if (encoding !== 'identity') headers['content-encoding'] = encoding
  const body = (file.bodies[encoding] ??= encode(file.bodies.identity!, encoding))
  return new Response(request.method === 'HEAD' ? null : (body as Uint8Array<ArrayBuffer>), { headers })
}

export const vendorRoutes = () => {
  const app = new Elysia({ name: 'vendor' })
  for (const [path, file] of Object.entries(FILES)) app.get(path, ({ request }) => vendorResponse(file, request), { detail: { hide: true } })
  return app
}
