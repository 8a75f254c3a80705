// POST /api/internal/run (the work a CLI hands to a running server, src/realtime/relay.ts): only
// with the token of DATA_DIR/server.json, only the tasks the wiring names; askServer says
// "not run" when no server answers, so the CLI works locally.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { askServer, RELAY_HEADER, serverOnDataDir } from '../../src/realtime/relay'
import { startTestServer, tempDir } from '../helpers'

describe('delegated work', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let token: string
  beforeAll(async () => {
    server = await startTestServer({ DEMO: '1' })
    token = JSON.parse(readFileSync(join(server.config.dataDir, 'server.json'), 'utf8')).token
  })
  afterAll(() => server.stop())

  const run = (body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${server.url}/api/internal/run`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) })

  test('refused without the relay token, and for a task the server does not offer', async () => {
    const none = await run({ task: 'scan' })
    expect(none.status).toBe(401)
    expect(await none.json()).toEqual({ error: { code: 'RELAY_TOKEN', message: 'Relay token required.' } })
    expect((await run({ task: 'scan' }, { [RELAY_HEADER]: 'wrong' })).status).toBe(401)
    const unknown = await run({ task: 'toString' }, { [RELAY_HEADER]: token })
    expect(unknown.status).toBe(404)
    expect((await unknown.json()).error.code).toBe('NO_TASK')
  })

  test('askServer runs a task on the server; serverOnDataDir finds it; another DATA_DIR has none', async () => {
    const r = await askServer<{ status: string; scanType: string }>(server.config, 'scan', {})
    expect(r).toMatchObject({ ran: true, result: { status: 'success', scanType: 'manual' } })
    expect(await serverOnDataDir(server.config)).toMatchObject({ port: server.port })
    expect(await askServer({ dataDir: tempDir() }, 'scan', {})).toEqual({ ran: false })
    expect(await serverOnDataDir({ dataDir: tempDir() })).toBeNull()
  })
})
