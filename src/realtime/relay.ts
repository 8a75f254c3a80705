// Bus relay from CLI processes to a running server on the same DATA_DIR, so `dibs scan`,
// `dibs match` … reach connected browsers live.
//   server: on start writes DATA_DIR/server.json {port, token, pid} (mode 600) and accepts
//           POST /api/internal/events {events: [{name, data}]} with header x-dibs-relay-token;
//           each event is emitted on its bus as if it had happened there.
//   CLI:    a bus that queues every event; flush() posts them to the server, if one runs.
// Without a server (no file, dead pid, refused connection, wrong token) flush() does nothing.
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { Elysia, t } from 'elysia'
import type { Config } from '../config'
import type { Deps } from '../deps'
import { unauthorized } from '../lib/errors'
import { log } from '../lib/log'
import { randomToken, safeEqual } from '../lib/tokens'
import { RELAYED_EVENTS, type BusEventName } from '../contract/events'
import type { Bus } from '../deps'
import { EventBus } from '../lib/bus'

export const RELAY_HEADER = 'x-dibs-relay-token'

const serverFile = (dataDir: string) => join(dataDir, 'server.json')

export const relayRoutes = (deps: Deps) => {
  const token = randomToken(24)
  return new Elysia({ name: 'relay' })
    .onStart(({ server }) => {
      if (!server?.port) return
      try {
        writeFileSync(serverFile(deps.config.dataDir), JSON.stringify({ port: server.port, token, pid: process.pid }), { mode: 0o600 })
      } catch (err) {
        log.warn('could not write server.json (CLI commands will not reach browsers live)', { error: String(err) })
      }
    })
    .post(
      '/api/internal/events',
      ({ request, body }) => {
        const given = request.headers.get(RELAY_HEADER) ?? ''
        if (!safeEqual(given, token)) throw unauthorized('Relay token required.', 'RELAY_TOKEN')
        let n = 0
        for (const e of body.events) {
          if (!RELAYED_EVENTS.includes(e.name as BusEventName)) continue
          deps.bus.emit(e.name as BusEventName, e.data as never)
          n++
        }
        return { emitted: n }
      },
      {
        body: t.Object({ events: t.Array(t.Object({ name: t.String(), data: t.Any() }), { maxItems: 5000 }) }),
        detail: { hide: true },
      },
    )
}

type ServerInfo = { port: number; token: string; pid: number }

function runningServer(config: Config): ServerInfo | null {
  const file = serverFile(config.dataDir)
  if (!existsSync(file)) return null
  try {
    const info = JSON.parse(readFileSync(file, 'utf8')) as ServerInfo
    if (info.pid !== process.pid) process.kill(info.pid, 0) // throws when that process is gone
    return info
  } catch {
    return null
  }
}

/** A bus for a CLI process: events queue up and flush() forwards them to a running server. */
export function relayBus(config: Config): { bus: Bus; flush(): Promise<number>; serverRunning(): boolean } {
  const bus: Bus = new EventBus()
  const queue: { name: BusEventName; data: unknown }[] = []
  for (const name of RELAYED_EVENTS) bus.on(name, (data) => void queue.push({ name, data }))
  return {
    bus,
    serverRunning: () => runningServer(config) !== null,
    async flush() {
      if (queue.length === 0) return 0
      const info = runningServer(config)
      const events = queue.splice(0)
      if (info === null) return 0
      // Bodies stay under the server's body limit (MAX_BODY_BYTES, 64 KiB by default).
      const max = Math.max(1024, Math.floor(config.maxBodyBytes * 0.75))
      const chunks: string[][] = [[]]
      let size = 0
      for (const e of events) {
        const json = JSON.stringify(e)
        if (size + json.length > max && chunks.at(-1)!.length > 0) (chunks.push([]), (size = 0))
        chunks.at(-1)!.push(json)
        size += json.length + 1
      }
      let sent = 0
      for (const chunk of chunks) {
        try {
          const res = await fetch(`http://127.0.0.1:${info.port}/api/internal/events`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', [RELAY_HEADER]: info.token },
            body: `{"events":[${chunk.join(',')}]}`,
            signal: AbortSignal.timeout(3000),
          })
          if (!res.ok) return sent
          sent += chunk.length
        } catch {
          return sent // server gone or stale file: nothing to reach
        }
      }
      return sent
    },
  }
}

/** Removes a stale server.json (on shutdown). */
export function clearServerFile(dataDir: string) {
  rmSync(serverFile(dataDir), { force: true })
}
