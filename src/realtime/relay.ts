// Bus relay from CLI processes to a running server on the same DATA_DIR, so `dibs scan`,
// `dibs match` … reach connected browsers live.
//   server: on start writes DATA_DIR/server.json {port, token, pid} (mode 600) and accepts
//           POST /api/internal/events {events: [{name, data}]} with header x-dibs-relay-token;
//           each event is emitted on its bus as if it had happened there.
//   CLI:    a bus that queues every event; flush() posts them to the server, if one runs.
// Without a server (no file, dead pid, refused connection, wrong token) flush() does nothing.
//
// Delegated work: `dibs scan` and `dibs match` beside a running server would spend a second Reddit
// rate budget and build a second term index. Instead they POST /api/internal/run {task, params}
// (same token) and the server runs the task on its own source and matcher, answering its result.
// The tasks are given by the wiring (src/app.ts → src/scanner/delegate.ts); this file only carries them.
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { Elysia, t } from 'elysia'
import type { Config } from '../config'
import type { Deps } from '../deps'
import { notFound, unauthorized } from '../lib/errors'
import { log } from '../lib/log'
import { randomToken, safeEqual } from '../lib/tokens'
import { RELAYED_EVENTS, type BusEventName } from '../contract/events'
import type { Bus } from '../deps'
import { EventBus } from '../lib/bus'
import { InternalEventsResponse, InternalRunResponse } from './models'
import { errors } from '../lib/models'

export const RELAY_HEADER = 'x-dibs-relay-token'

const serverFile = (dataDir: string) => join(dataDir, 'server.json')

/** Work a CLI process may hand to the running server: task name → runs it there, answers a JSON result. */
export type RelayTasks = Record<string, (params: Record<string, unknown>) => Promise<unknown>>

export const relayRoutes = (deps: Deps, tasks: RelayTasks = {}) => {
  const token = randomToken(24)
  const authorize = (request: Request) => {
    if (!safeEqual(request.headers.get(RELAY_HEADER) ?? '', token)) throw unauthorized('Relay token required.', 'RELAY_TOKEN')
  }
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
        authorize(request)
        let n = 0
        for (const e of body.events) {
          if (!RELAYED_EVENTS.includes(e.name as BusEventName)) continue
          deps.bus.emit(e.name as BusEventName, e.data as never)
          n++
        }
        return { emitted: n }
      },
      {
        response: { 200: InternalEventsResponse, ...errors(400) },
        body: t.Object({ events: t.Array(t.Object({ name: t.String(), data: t.Any() }), { maxItems: 5000 }) }),
        detail: { hide: true },
      },
    )
    .post(
      '/api/internal/run',
      async ({ request, body }) => {
        authorize(request)
        const task = Object.hasOwn(tasks, body.task) ? tasks[body.task] : undefined
        if (!task) throw notFound(`No task "${body.task}" on this server.`, 'NO_TASK')
        return { result: await task(body.params ?? {}) }
      },
      {
        response: { 200: InternalRunResponse, ...errors(400) },
        body: t.Object({ task: t.String({ maxLength: 64 }), params: t.Optional(t.Record(t.String(), t.Any())) }),
        detail: { hide: true },
      },
    )
}

type ServerInfo = { port: number; token: string; pid: number }

function readServerFile(config: Pick<Config, 'dataDir'>): ServerInfo | null {
  const file = serverFile(config.dataDir)
  if (!existsSync(file)) return null
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as ServerInfo
  } catch {
    return null
  }
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0) // throws when that process is gone
    return true
  } catch {
    return false
  }
}

function runningServer(config: Pick<Config, 'dataDir'>): ServerInfo | null {
  const info = readServerFile(config)
  return info && (info.pid === process.pid || pidAlive(info.pid)) ? info : null
}

/** The server's answer to its token on the port server.json names (an empty relay): it is up and it is that server. */
async function answers(info: ServerInfo, timeoutMs = 2000): Promise<boolean> {
  try {
    const res = await fetch(`http://127.0.0.1:${info.port}/api/internal/events`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [RELAY_HEADER]: info.token },
      body: '{"events":[]}',
      signal: AbortSignal.timeout(timeoutMs),
    })
    await res.body?.cancel()
    return res.ok
  } catch {
    return false
  }
}

/**
 * Whether a server runs on this DATA_DIR, for a command that must not run beside one (restore):
 * yes when server.json's server answers its token, or when its pid is another live process (a hung
 * server still holds the database). The pid alone is not trusted when it is this very process: in
 * a fresh container the CLI may get the pid a killed server had written.
 */
export async function serverOnDataDir(config: Pick<Config, 'dataDir'>): Promise<ServerInfo | null> {
  const info = readServerFile(config)
  if (!info) return null
  if (await answers(info)) return info
  return info.pid !== process.pid && pidAlive(info.pid) ? info : null
}

export type Delegated<T> = { ran: true; result: T } | { ran: false }

/**
 * Asks the server on this DATA_DIR to run a task (POST /api/internal/run). `{ran: false}` when no
 * server answers (the caller then works locally); an error when one answered but the task failed
 * there (the caller must not run it a second time beside it).
 */
export async function askServer<T>(config: Pick<Config, 'dataDir'>, task: string, params: Record<string, unknown>, timeoutMs = 120_000): Promise<Delegated<T>> {
  const info = readServerFile(config)
  if (!info || !(await answers(info))) return { ran: false }
  const res = await fetch(`http://127.0.0.1:${info.port}/api/internal/run`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', [RELAY_HEADER]: info.token },
    body: JSON.stringify({ task, params }),
    signal: AbortSignal.timeout(timeoutMs),
  })
  const body = (await res.json().catch(() => null)) as { result?: T; error?: { message?: string } } | null
  if (!res.ok || !body || !('result' in body)) throw new Error(`the running server could not ${task}: ${body?.error?.message ?? `HTTP ${res.status}`}`)
  return { ran: true, result: body.result as T }
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
        if (size + json.length > max && chunks.at(-1)!.length > 0) {
          chunks.push([])
          size = 0
        }
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
