// The typed API client (ui/client.ts, Eden Treaty over the server's App): what it sends and how it
// reads answers, against a stand-in fetch. The types themselves are proved in tests/unit/contract-types.test.ts.
import { afterEach, describe, expect, test } from 'bun:test'
import { api, ApiError, call, send, within } from '../../ui/client'

type Seen = { url: string; method: string; body: unknown; credentials?: RequestCredentials; signal?: AbortSignal | null; contentType?: string | null }
const realFetch = globalThis.fetch
let seen: Seen[] = []

function answer(status: number, body: unknown, headers: Record<string, string> = { 'content-type': 'application/json' }) {
  seen = []
  globalThis.fetch = (async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const h = new Headers(init.headers)
    seen.push({
      url: String(input),
      method: init.method ?? 'GET',
      body: typeof init.body === 'string' && h.get('content-type') === 'application/json' ? JSON.parse(init.body) : init.body,

      credentials: init.credentials,
      signal: init.signal,
      contentType: h.get('content-type'),
    })
    return new Response(typeof body === 'string' ? body : JSON.stringify(body), { status, headers })
  }) as typeof fetch
}
afterEach(() => {
  globalThis.fetch = realFetch
})

describe('the typed API client', () => {
  test('same-origin relative addresses with the session cookie; path params and queries from the call', async () => {
    answer(200, { terms: [], limit: 10 })
    await call(api.terms.get({ query: { category: 'wts' } }))
    expect(seen[0]).toMatchObject({ url: '/api/terms?category=wts', method: 'GET', credentials: 'same-origin' })
    answer(200, { term: { id: 7 }, backfilled: 0 })
    await call(api.terms({ id: 7 }).patch({ paused: true }))
    expect(seen[0]).toMatchObject({ url: '/api/terms/7', method: 'PATCH', body: { paused: true }, contentType: 'application/json' })
  })

  test('ISO date strings stay strings, as the server types them', async () => {
    answer(200, { id: 1, createdAt: '2026-03-01T10:00:00.000Z' })
    const r = (await call(api.me.get())) as unknown as { createdAt: unknown }
    expect(r.createdAt).toBe('2026-03-01T10:00:00.000Z')
  })

  test('an error answer throws ApiError with the server code, message and body', async () => {
    const body = { error: { code: 'INVALID_TERM', message: 'Too short.', title: 'Nope' } }
    answer(400, body)
    const err = await call(api.terms.post({ category: 'wts', term: 'x' })).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(ApiError)
    expect(err).toMatchObject({ status: 400, code: 'INVALID_TERM', message: 'Too short.', body })
  })

  test('an error answer without our shape still becomes an ApiError named by its status', async () => {
    answer(502, 'Bad gateway', { 'content-type': 'text/plain' })
    const err = await call(api.unread.get()).catch((e: unknown) => e)
    expect(err).toMatchObject({ status: 502, code: 'HTTP_502', message: 'Request failed (502)' })
  })

  test('a failed fetch (offline, time limit) throws its own error, not a made-up 503', async () => {
    globalThis.fetch = (async () => {
      throw new TypeError('Failed to fetch')
    }) as unknown as typeof fetch
    const err = await call(api.unread.get()).catch((e: unknown) => e)
    expect(err).not.toBeInstanceOf(ApiError)
    expect(err).toBeInstanceOf(TypeError)
  })

  test('within(ms) hands the request a time-limit signal', async () => {
    answer(200, { wts: 0, wtb: 0, gd: 0 })
    await call(api.unread.get({ fetch: within(5000) }))
    expect(seen[0]!.signal).toBeInstanceOf(AbortSignal)
  })

  test('send(): the untyped path for a non-JSON body, with the same error mapping', async () => {
    answer(200, { rows: [] })
    await send('/api/terms/import?format=csv', { method: 'POST', headers: { 'content-type': 'text/csv' }, body: 'category,term\nwts,glock' })
    expect(seen[0]).toMatchObject({ url: '/api/terms/import?format=csv', method: 'POST', credentials: 'same-origin', contentType: 'text/csv' })
    answer(413, { error: { code: 'PAYLOAD_TOO_LARGE', message: 'Too big.' } })
    const err = await send('/api/terms/import?format=csv', { method: 'POST', body: 'x' }).catch((e: unknown) => e)
    expect(err).toMatchObject({ status: 413, code: 'PAYLOAD_TOO_LARGE' })
  })
})
