// GET /api/docs: the API reference as one server-rendered page, built from the OpenAPI document at
// /api/docs/json. No script and no CDN (the openapi plugin's Scalar page loads its renderer from a
// CDN at run time, which a self-hosted box may not reach); one inline stylesheet, allowed by hash.
import { Elysia } from 'elysia'
import type { Deps } from '../deps'
import { cspHash } from './security-headers'
import { escapeHtml } from '../lib/html'

type Operation = { summary?: string; description?: string; tags?: string[]; hide?: boolean }
type OpenApi = { info?: { title?: string; description?: string; version?: string }; paths?: Record<string, Record<string, Operation>> }

const STYLE = `
:root { color-scheme: light dark; font-family: system-ui, sans-serif; line-height: 1.5 }
body { max-width: 60rem; margin: 0 auto; padding: 1.5rem }
h1 { margin-bottom: 0 } h2 { margin-top: 2rem; border-bottom: 1px solid #8884; text-transform: capitalize }
nav a { margin-right: 1rem }
.op { display: grid; grid-template-columns: 5rem 1fr; gap: .25rem 1rem; padding: .5rem 0; border-bottom: 1px solid #8882 }
.method { font: 600 .8rem ui-monospace, monospace; text-transform: uppercase; padding-top: .2rem }
.get { color: #2f855a } .post { color: #b7791f } .put, .patch { color: #2b6cb0 } .delete { color: #c53030 }
code { font-family: ui-monospace, monospace; font-size: .95rem }
.summary { grid-column: 2; margin: 0; opacity: .85 }
`

export const API_DOCS_STYLE_HASH = cspHash(STYLE)

export function renderApiDocs(spec: OpenApi): string {
  const byTag = new Map<string, { method: string; path: string; op: Operation }[]>()
  for (const [path, methods] of Object.entries(spec.paths ?? {}))
    for (const [method, op] of Object.entries(methods)) {
      const tag = op.tags?.[0] ?? 'other'
      if (!byTag.has(tag)) byTag.set(tag, [])
      byTag.get(tag)!.push({ method, path, op })
    }
  const tags = [...byTag.keys()].sort()
  const sections = tags.map((tag) => {
    const ops = byTag.get(tag)!.sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method))
    const rows = ops
      .map(
        ({ method, path, op }) =>
          `<div class="op"><span class="method ${escapeHtml(method)}">${escapeHtml(method)}</span><code>${escapeHtml(path)}</code>` +
          (op.summary ? `<p class="summary">${escapeHtml(op.summary)}</p>` : '') +
          `</div>`,
      )
      .join('\n')
    return `<section id="${escapeHtml(tag)}"><h2>${escapeHtml(tag)}</h2>\n${rows}</section>`
  })
  const title = spec.info?.title ?? 'API'
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title><style>${STYLE}</style></head>
<body><h1>${escapeHtml(title)}</h1><p>${escapeHtml(spec.info?.description ?? '')}</p>
<p>Machine-readable: <a href="/api/docs/json">/api/docs/json</a> (OpenAPI ${escapeHtml(spec.info?.version ?? '')}).</p>
<nav>${tags.map((t) => `<a href="#${escapeHtml(t)}">${escapeHtml(t)}</a>`).join('')}</nav>
${sections.join('\n')}
</body></html>`
}

/** `spec` reads the OpenAPI document (the app's own /api/docs/json). */
export const apiDocsRoutes = (_deps: Pick<Deps, 'config'>, spec: () => Promise<OpenApi>) =>
  new Elysia({ name: 'api-docs' }).get(
    '/api/docs',
    async () => new Response(renderApiDocs(await spec()), { headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache' } }),
    { detail: { hide: true } },
  )
