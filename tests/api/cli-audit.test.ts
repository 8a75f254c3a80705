// The CLI is audited like the admin pages: every state-changing command run beside a running
// server writes an audit row (actor 'cli:<OS user>'), ok or failed, and the admin views show it:
// the user detail (rows whose target is the account) and Recent Activity. Read-only commands and
// usage errors write none.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { userInfo } from 'node:os'
import { createUserWithSession, spawnCli, startTestServer } from '../helpers'

let server: Awaited<ReturnType<typeof startTestServer>>
let admin: Awaited<ReturnType<typeof createUserWithSession>>
beforeAll(async () => {
  server = await startTestServer({ ADMIN_EMAILS: 'root@example.com' })
  admin = await createUserWithSession(server.deps, { email: 'root@example.com', role: 'admin' })
})
afterAll(() => server.stop())

const actor = `cli:${userInfo().username}`
const cli = (...args: string[]) => spawnCli(args, { DATA_DIR: server.config.dataDir, ADMIN_EMAILS: 'root@example.com' })
const get = async (path: string) => {
  const res = await fetch(`http://127.0.0.1:${server.port}${path}`, { headers: { cookie: admin.cookie } })
  expect(res.status).toBe(200)
  return (await res.json()) as any
}
const auditRows = () =>
  server.deps.sqlite
    .query<{ actor: string; action: string; target: string | null; result: string }, []>('SELECT actor, action, target, result FROM audit_log ORDER BY id')
    .all()

describe('state-changing CLI commands write audit rows', () => {
  test('users create, set-role, grant and reset-2fa, archive-posts, backfill-post-types and match: one row each, shown in the admin views', async () => {
    const slug = server.config.productSlug
    const runs = [
      ['users', 'create', '--email', 'Pat@Example.com', '--password', 'violet-harbor-lantern-92', '--confirmed'],
      ['users', 'set-role', 'pat@example.com', 'gd'],
      ['users', 'grant', 'pat@example.com', slug, '--until', '30d'],
      ['users', 'reset-2fa', 'pat@example.com'], // fails: pat has no two-factor sign-in
      ['archive-posts', '--older-than', '30d'],
      ['backfill-post-types'],
      ['match', '--since', '1h'],
    ]
    const codes: number[] = []
    for (const args of runs) codes.push((await cli(...args)).code)
    expect(codes).toEqual([0, 0, 0, 1, 0, 0, 0])

    const pat = server.deps.sqlite.query<{ id: number }, []>("SELECT id FROM users WHERE email = 'pat@example.com'").get()!
    const target = `user:${pat.id}`
    expect(auditRows()).toEqual([
      { actor, action: 'user.create', target, result: 'ok' },
      { actor, action: 'user.role', target, result: 'ok' },
      { actor, action: 'user.grant', target, result: 'ok' },
      { actor, action: 'user.reset_2fa', target, result: 'failed' },
      { actor, action: 'posts.archive', target: null, result: 'ok' },
      { actor, action: 'posts.backfill_types', target: null, result: 'ok' },
      { actor, action: 'matching.batch', target: null, result: 'ok' },
    ])

    // The Users page's detail of the account lists its rows, newest first, with the CLI as actor.
    const detail = await get(`/api/admin/users/${pat.id}`)
    expect(detail.audit.map((a: any) => [a.action, a.actor, a.result])).toEqual([
      ['user.reset_2fa', actor, 'failed'],
      ['user.grant', actor, 'ok'],
      ['user.role', actor, 'ok'],
      ['user.create', actor, 'ok'],
    ])
    expect(detail.audit[0].details.error).toBe('pat@example.com has no two-factor sign-in')
    expect(detail.audit[2].details).toMatchObject({ role: 'gd', email: 'pat@example.com' })

    // Recent Activity on the dashboard, in words.
    const activity = (await get('/api/admin/activity?limit=30')) as { kind: string; text: string; actor: string | null; status: string }[]
    const fromCli = activity.filter((a) => a.kind === 'admin' && a.actor === actor).map((a) => `${a.text} [${a.status}]`)
    expect(fromCli).toEqual([
      'Batch matching [ok]',
      'Post types backfilled [ok]',
      'Old posts archived [ok]',
      `Two-factor sign-in of ${target} reset [failed]`,
      `Gifted ${slug} to ${target} [ok]`,
      `Role of ${target} set to gd [ok]`,
      'Added user pat@example.com [ok]',
    ])
  }, 60_000)

  test('read-only commands and usage errors write no row', async () => {
    const before = auditRows().length
    expect((await cli('users', 'list')).code).toBe(0)
    expect((await cli('users', 'set-role', 'pat@example.com')).code).toBe(2) // no role: usage error
    expect((await cli('doctor')).code).toBeGreaterThanOrEqual(0)
    expect(auditRows()).toHaveLength(before)
  }, 60_000)
})
