// The one API client: same-origin JSON with the session cookie; errors become ApiError
// carrying the server's {error: {code, message}}. Every answer also tells whether maintenance
// mode is on (ui/maintenance.ts).
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
