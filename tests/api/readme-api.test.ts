// The README's API section (issue 28): its three curl calls (docs/examples/api.sh) run against a real
// server with a personal access token made as the README says, so the snippet stays true.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { storePosts } from '../../src/forums/store'
import { forumPost } from '../fakes/forum-post'
import { createUserWithSession, startTestServer } from '../helpers'

const script = join(import.meta.dir, '../../docs/examples/api.sh')
let server: Awaited<ReturnType<typeof startTestServer>>
beforeAll(async () => {
  server = await startTestServer()
})
afterAll(async () => {
  await server.stop()
})

async function run(env: Record<string, string>) {
  const p = Bun.spawn(['bash', script], { env: { PATH: process.env.PATH ?? '', ...env }, stdout: 'pipe', stderr: 'pipe' })
  const [out, err, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited])
  return { out, err, code }
}

describe("the README's API calls (docs/examples/api.sh)", () => {
  test('the README shows the script as it is', () => {
    const readme = readFileSync(join(import.meta.dir, '../../README.md'), 'utf8')
    expect(readme.includes('```bash\n' + readFileSync(script, 'utf8') + '```')).toBe(true)
  })

  test('with a read-and-write token: lists the terms, adds one, lists the match it found', async () => {
    const u = await createUserWithSession(server.deps, { email: 'script@example.com' })
    await storePosts(server.deps, [forumPost('[WTS] Aimpoint T-2 with mount - $640', { now: Date.now(), ageMs: 60_000 })])
    const made = await fetch(server.url + '/api/tokens', {
      method: 'POST',
      headers: { origin: server.url, cookie: u.cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'readme', scopes: ['read', 'write'], expiresInDays: 30 }),
    })
    const { token } = (await made.json()) as { token: string }

    const r = await run({ DIBS_URL: server.url, DIBS_TOKEN: token })
    expect(r.err).toBe('')
    expect(r.code).toBe(0)
    const [terms, added, matches] = r.out
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line))
    expect(terms.terms).toEqual([])
    expect(added.term).toMatchObject({ term: 'aimpoint t-2', category: 'wts' })
    expect(matches.matches.map((m: { title: string }) => m.title)).toEqual(['[WTS] Aimpoint T-2 with mount - $640'])
  })

  test('with a read-only token the second call fails with the words of the 403, and the script stops', async () => {
    const u = await createUserWithSession(server.deps, { email: 'reader@example.com' })
    const made = await fetch(server.url + '/api/tokens', {
      method: 'POST',
      headers: { origin: server.url, cookie: u.cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'readme', scopes: ['read'] }),
    })
    const { token } = (await made.json()) as { token: string }
    const r = await run({ DIBS_URL: server.url, DIBS_TOKEN: token })
    expect(r.code).not.toBe(0)
    expect(r.out).toContain("does not have the 'write' scope")
    expect(r.out).not.toContain('"matches"')
  })
})
