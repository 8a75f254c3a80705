// The untyped API call, on its way out: ui/client.ts is the client typed from the server.
import { noteMaintenance } from './maintenance'
import { ApiError } from './client'

export { ApiError }

export async function api<T = unknown>(path: string, init: RequestInit & { json?: unknown; timeoutMs?: number } = {}): Promise<T> {
  const { json, timeoutMs, ...rest } = init
  const headers = new Headers(rest.headers)
  if (json !== undefined) headers.set('content-type', 'application/json')
  const res = await fetch(path, {
    credentials: 'same-origin',
    ...rest,
    headers,
    body: json !== undefined ? JSON.stringify(json) : rest.body,
    signal: rest.signal ?? (timeoutMs ? AbortSignal.timeout(timeoutMs) : undefined),
  })
  if (path.startsWith('/api/')) noteMaintenance(res)
  const text = await res.text()
  let body: any = null
  try {
    body = text ? JSON.parse(text) : null
  } catch {
    body = text
  }
  if (!res.ok) {
    const err = body?.error
    throw new ApiError(res.status, err?.code ?? 'HTTP_' + res.status, err?.message ?? `Request failed (${res.status})`, body)
  }
  return body as T
}
