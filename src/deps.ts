// What every capability receives: typed config, the database, the event bus and a clock.
// Services take these (never Elysia's Context) so the CLI, jobs and tests can call them directly.
// The long-lived services (term index, scan source, outbox, sockets) are beside it: src/services.ts.
import type { Database } from 'bun:sqlite'
import type { Config } from './config'
import type { BusEvents } from './contract/events'
import type { AsyncDb } from './db/async-db'
import type { Db } from './db/client'
import type { EventBus } from './lib/bus'

export type Bus = EventBus<BusEvents>

export type Deps = {
  config: Config
  /** the owners' database: SQLite's handle (its statements go through `asAsync`'s gate) or PostgreSQL's (src/db/open.ts) */
  db: Db | AsyncDb
  /** SQLite's own connection, for what only SQLite has (PRAGMAs, backups, page figures); null on PostgreSQL */
  sqlite: Database | null
  bus: Bus
  now: () => Date
}

/** Deps of a process on SQLite (tests, benches, SQLite-only tools): both handles are there. */
export type SqliteDeps = Omit<Deps, 'db' | 'sqlite'> & { db: Db; sqlite: Database }
