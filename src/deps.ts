// What every capability receives: typed config, the database, the event bus and a clock.
// Services take these (never Elysia's Context) so the CLI, jobs and tests can call them directly.
import type { Database } from 'bun:sqlite'
import type { Config } from './config'
import type { Db } from './db/client'
import type { EventBus } from './realtime/bus'

export type Deps = {
  config: Config
  db: Db
  sqlite: Database
  bus: EventBus
  now: () => Date
}
