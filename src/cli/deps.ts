// Deps for an operator command: its own database handle (safe beside a running server: WAL + busy
// timeout) and a bus that relays its events to that server, so connected browsers see the effects.
// Without a server, match alerts are queued here and delivered by the server's outbox when it starts.
import type { Config } from '../config'
import { openDb } from '../db/client'
import type { Deps } from '../deps'
import { attachDispatcher } from '../notify/dispatcher'
import { relayBus } from '../realtime/relay'

export async function withCliDeps<T>(config: Config, fn: (deps: Deps) => Promise<T> | T, relayed: (count: number) => string): Promise<T> {
  const opened = openDb(config.dbPath)
  const relay = relayBus(config)
  const deps: Deps = { config, db: opened.db, sqlite: opened.sqlite, bus: relay.bus, now: () => new Date() }
  const dispatch = relay.serverRunning() ? null : attachDispatcher(deps)
  try {
    const result = await fn(deps)
    dispatch?.()
    const sent = await relay.flush()
    if (sent > 0) console.log(relayed(sent))
    return result
  } finally {
    opened.close()
  }
}
