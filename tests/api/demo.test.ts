// DEMO=1: the offline forum feeds the scanner, demo accounts are seeded, matches arrive.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from '../../src/demo/seed'
import { dispatchMatch } from '../../src/notify/dispatcher'
import { getPrefs } from '../../src/notify/prefs'
import { startTestServer } from '../helpers'
import { makeMatch } from './notify-helpers'

async function until<T>(fn: () => T | null | undefined | false, ms = 8000): Promise<T> {
  const end = Date.now() + ms
  for (;;) {
    const v = fn()
    if (v) return v
    if (Date.now() > end) throw new Error('timed out waiting')
    await Bun.sleep(50)
  }
}

describe('demo mode', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  beforeAll(async () => {
    server = await startTestServer({ DEMO: '1' }, { jobs: true })
  })
  afterAll(() => server.stop())

  test('the demo forum fills the live feed and the demo subscriber gets matches', async () => {
    const q = (sql: string) => server.deps.sqlite.query(sql).get() as any
    await until(() => q('SELECT count(*) AS n FROM posts').n >= 40)
    const sub = await until(() => q(`SELECT id FROM users WHERE email = '${DEMO_ACCOUNTS[1]!.email}'`))
    expect(q(`SELECT role FROM user_access WHERE user_id = ${sub.id}`).role).toBe('product+gd')
    expect(q(`SELECT count(*) AS n FROM search_terms WHERE user_id = ${sub.id}`).n).toBeGreaterThan(5)
    await until(() => q(`SELECT count(*) AS n FROM matches WHERE user_id = ${sub.id}`).n > 0)
    const feed = await (await fetch(`${server.url}/api/posts`)).json()
    expect(feed.total).toBeGreaterThan(30)
    const scan = q("SELECT status, details FROM maintenance_logs WHERE job_name = 'fetch-reddit-posts' ORDER BY id LIMIT 1")
    expect(scan.status).toBe('success')
    expect(JSON.parse(scan.details).scan_type).toBe('demo')
  })

  test('the demo subscriber gets the batched digest, not one email per match', async () => {
    const q = (sql: string) => server.deps.sqlite.query(sql).get() as any
    const sub = await until(() => q(`SELECT id FROM users WHERE email = '${DEMO_ACCOUNTS[1]!.email}'`))
    expect((await getPrefs(server.deps, sub.id)).email_frequency).toBe('batched')
    // A live match (a new demo post arrives every few seconds) queues no email of its own.
    expect(await dispatchMatch(server.deps, sub.id, makeMatch(server.deps, sub.id))).toMatchObject({ email: false })
    expect(q(`SELECT count(*) AS n FROM outbox WHERE user_id = ${sub.id} AND kind = 'match'`).n).toBe(0)
  })

  test('the demo accounts can sign in', async () => {
    const res = await fetch(`${server.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: server.deps.config.appUrl },
      body: JSON.stringify({ email: DEMO_ACCOUNTS[0]!.email, password: DEMO_PASSWORD }),
    })
    expect(res.status).toBe(200)
  })
})
