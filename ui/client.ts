// The one API client: Eden Treaty typed from the server's own `App` (src/app.ts), so every answer's
// type is the server's and `tsc` fails where the UI and a route disagree (docs/web-app.md "Calling
// the API"). Same-origin JSON with the session cookie; `call()` turns an answer into its data or
// throws ApiError carrying the server's {error: {code, message}}. Every /api answer also tells
// whether maintenance mode is on (ui/maintenance.ts).
//
//   const me = await call(api.me.get({ fetch: within(5000) }))
//   await call(api.terms({ id }).patch({ paused: true }))
import { treaty } from '@elysiajs/eden'
import type { App } from '../src/app'
import { noteMaintenance } from './maintenance'

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly body?: unknown,
  ) {
    super(message)
  }
}

/** fetch as every API call makes it: the session cookie, and the maintenance header noted. */
async function sessionFetch(input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> {
  const res = await fetch(input, { credentials: 'same-origin', ...init })
  if (String(input).startsWith('/api/')) noteMaintenance(res)
  return res
}

/**
 * The API from /api down, typed by the server: `api.me.get()`, `api.terms({ id }).delete()`.
 * Relative addresses (keepDomain), ISO dates left as strings like the server's types say (parseDate).
 */
export const api = treaty<App>('', { keepDomain: true, parseDate: false, fetcher: sessionFetch as typeof fetch }).api

/** What a route answers on success: `Answer<typeof api.admin.kpis.get>` is the server's type for GET /api/admin/kpis. */
export type Answer<Route extends (...args: never[]) => Promise<EdenAnswer>> = Extract<Awaited<ReturnType<Route>>, { error: null }>['data']

/** A per-call time limit for Eden's `fetch` option: `api.me.get({ fetch: within(5000) })`. */
export const within = (ms: number): RequestInit => ({ signal: AbortSignal.timeout(ms) })

type EdenAnswer = { data: unknown; error: unknown; status: number; response: Response | undefined }

/** The data of a successful answer; an error answer throws ApiError, a failed fetch (offline, timeout) its own error. */
export async function call<R extends EdenAnswer>(request: Promise<R>): Promise<Extract<R, { error: null }>['data']> {
  const r = await request
  if (r.error === null) return r.data as Extract<R, { error: null }>['data']
  const { value } = r.error as { value: unknown }
  if (r.response === undefined) throw value // Eden wraps the fetch's own failure as a 503: rethrow it as fetch would
  throw toApiError(r.status, value)
}

function toApiError(status: number, body: unknown): ApiError {
  const err = (body as { error?: { code?: string; message?: string } } | null)?.error
  return new ApiError(status, err?.code ?? 'HTTP_' + status, err?.message ?? `Request failed (${status})`, body)
}

/**
 * Untyped, for the few requests Eden cannot shape: a body that is not JSON (the terms import sends
 * the file as text/csv or JSON text). The caller names the answer by the route's own type
 * (`send<Answer<typeof api.terms.import.post>>(…)`). Errors as call().
 */
export async function send<T>(path: string, init: RequestInit & { timeoutMs?: number } = {}): Promise<T> {
  const { timeoutMs, ...rest } = init
  const res = await sessionFetch(path, { ...rest, signal: rest.signal ?? (timeoutMs ? AbortSignal.timeout(timeoutMs) : undefined) })
  const text = await res.text()
  let body: unknown = null
  try {
    body = text ? JSON.parse(text) : null
  } catch {
    body = text
  }
  if (!res.ok) throw toApiError(res.status, body)
  return body as T
}
