// The suites' engine switch (tests/engine.ts): makeDeps and test servers run on the engine the
// process was started for — SQLite files by default, PostgreSQL under DIBS_TEST_ENGINE=postgres (the
// CI run of tests/postgres-suites.txt, which lists this file so a broken switch fails there).
import { expect, test } from 'bun:test'
import { engineOf } from '../../src/db/async-db'
import { TEST_ENGINE } from '../engine'
import { makeDeps, startTestServer } from '../helpers'

test('makeDeps and a test server run on the test engine', async () => {
  const deps = await makeDeps()
  expect(engineOf(deps.db)).toBe(TEST_ENGINE)
  expect(deps.sqlite === null).toBe(TEST_ENGINE === 'postgres')
  deps.close()
  const server = await startTestServer()
  expect(engineOf(server.deps.db)).toBe(TEST_ENGINE)
  const ready = (await (await fetch(server.url + '/readyz')).json()) as { checks: { migrations: { ok: boolean } } }
  expect(ready.checks.migrations.ok).toBe(true)
  await server.stop()
}, 60_000)
