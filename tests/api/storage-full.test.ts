// A full disk while running (issue 11 item 10): a write answers 503 'Storage is full', not 500, and
// /healthz says so. No small file system can be mounted here without privileges, so the database
// is made full for real with SQLite's own size limit (PRAGMA max_page_count on the server's
// connection): the next page it needs fails with SQLITE_FULL, "database or disk is full", exactly
// the error a full disk gives.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { startTestServer } from '../helpers'

describe('a full disk while running', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  beforeAll(async () => {
    server = await startTestServer()
  })
  afterAll(() => server.stop())

  const post = (path: string, json: unknown) =>
    fetch(server.url + path, { method: 'POST', headers: { 'content-type': 'application/json', origin: server.deps.config.appUrl }, body: JSON.stringify(json) })
  const health = async () => {
    const res = await fetch(server.url + '/healthz')
    return { status: res.status, body: (await res.json()) as Record<string, unknown> }
  }

  test("healthy storage: /healthz says storage 'ok'", async () => {
    expect(await health()).toMatchObject({ status: 200, body: { status: 'ok', db: 'ok', storage: 'ok' } })
  })

  test("a write that needs space answers 503 STORAGE_FULL 'Storage is full', and /healthz reports it", async () => {
    const sqlite = server.deps.sqlite
    sqlite.run('VACUUM') // no free pages left inside the file
    const { page_count } = sqlite.query<{ page_count: number }, []>('PRAGMA page_count').get()!
    sqlite.run(`PRAGMA max_page_count = ${page_count}`)

    // A 4,900-character message needs an overflow page: the database must grow.
    const res = await post('/api/contact', { email: 'full@example.com', subject: 'Disk', message: 'x'.repeat(4900) })
    expect(res.status).toBe(503)
    expect(await res.json()).toEqual({ error: { code: 'STORAGE_FULL', message: 'Storage is full' } })
    expect(await health()).toMatchObject({ status: 503, body: { status: 'error', db: 'ok', storage: 'full' } })

    // Space again: /healthz keeps reporting the failed write for a minute, then the API writes again.
    sqlite.run('PRAGMA max_page_count = 1073741823')
    expect((await health()).body.storage).toBe('full')
    const again = await post('/api/contact', { email: 'full@example.com', subject: 'Disk', message: 'x'.repeat(4900) })
    expect(again.status).toBe(201)
  })
})
