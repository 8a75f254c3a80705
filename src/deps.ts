// What every capability receives: typed config, the database, the event bus and a clock.
// Services take these (never Elysia's Context) so the CLI, jobs and tests can call them directly.
// The long-lived services (term index, scan source, outbox, sockets) are beside it: src/services.ts.
import type { Database } from 'bun:sqlite'
import type { Config } from './config'
import type { BusEvents } from './contract/events'
import type { Db } from './db/client'
import type { EventBus } from './lib/bus'

export type Bus = EventBus<BusEvents>

export type Deps = {
  config: Config
  db: Db
  sqlite: Database
  bus: Bus
  now: () => Date
}
