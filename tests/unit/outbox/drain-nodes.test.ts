// The outbox drained by every node (issue 29 §3): three workers, each with its own connections to one
// real PostgreSQL server (tests/pg.ts), run the worker loop (processOutbox) at once over the same queue;
// every row is sent exactly once (claimed FOR UPDATE SKIP LOCKED, re-checked pending). The same loop on
// SQLite sends each row once too.
import { afterAll, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import type { AsyncDb } from '../../../src/db/async-db'
import { openPg } from '../../../src/db/pg-client'
import { outbox, type OutboxRow } from '../../../src/db/schema'
import { processOutbox } from '../../../src/outbox/queue'
import { makeDeps } from '../../helpers'
import { usePostgres } from '../../pg'

const pg = usePostgres()
const closers: (() => Promise<void>)[] = []
afterAll(async () => {
  for (const c of closers) await c()
})

const ROWS = 600

async function fill(db: AsyncDb) {
  const at = new Date(Date.now() - 60_000)
  for (let i = 0; i < ROWS; i += 100)
    await db
      .insert(outbox)
      .values(
        Array.from({ length: 100 }, (_, j) => ({ channel: 'push', kind: 'match', dedupeKey: `match:${i + j}:push`, payload: { n: i + j }, nextAttemptAt: at })),
      )
}

/** A worker loop: claim 25 at a time until nothing is due; the sender takes a little while, as a real one does. */
async function drain(db: AsyncDb, sent: Map<number, string[]>, name: string) {
  const senders = {
    push: async (row: OutboxRow) => {
      sent.set(row.id, [...(sent.get(row.id) ?? []), name])
      await Bun.sleep(Math.random() * 3)
    },
  }
  for (;;) {
    const r = await processOutbox({ db, now: () => new Date() }, senders, { limit: 25 })
    if (r.sent + r.retried + r.failed === 0) return
  }
}

describe('the outbox drained by several workers', () => {
  test('three nodes on one PostgreSQL: every row sent exactly once, and by more than one node', async () => {
    const url = await pg.server.newDatabase()
    const nodes = await Promise.all([0, 1, 2].map(() => openPg(url, { max: 4 })))
    for (const n of nodes) closers.push(n.close)
    await fill(nodes[0]!.db)
    const sent = new Map<number, string[]>()
    await Promise.all(nodes.map((n, i) => drain(n.db, sent, `node${i + 1}`)))
    const twice = [...sent].filter(([, by]) => by.length > 1)
    expect(twice).toEqual([])
    expect(sent.size).toBe(ROWS)
    const byNode = new Set([...sent.values()].flat())
    expect(byNode.size).toBeGreaterThan(1)
    expect((await nodes[0]!.db.select({ id: outbox.id }).from(outbox).where(eq(outbox.status, 'sent'))).length).toBe(ROWS)
  }, 120_000)

  test('the same worker loop on SQLite sends every row once', async () => {
    const deps = await makeDeps()
    const db = deps.db as unknown as AsyncDb
    await fill(db)
    const sent = new Map<number, string[]>()
    await drain(db, sent, 'sqlite')
    expect(sent.size).toBe(ROWS)
    expect([...sent.values()].every((by) => by.length === 1)).toBe(true)
  }, 60_000)
})
