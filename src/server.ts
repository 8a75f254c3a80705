// Starts the whole service in one process: database, event bus, HTTP + WebSocket server and
// background jobs; stops them in reverse order on SIGTERM/SIGINT within 10 seconds.
import { createApp, appShell } from './app'
import type { Config } from './config'
import { openDb } from './db/client'
import type { Deps } from './deps'
import { startJobs, jobList, type RunningJobs } from './jobs'
import { log } from './lib/log'
import { EventBus } from './realtime/bus'
import { clearServerFile } from './realtime/relay'

export type RunningServer = { url: string; port: number; deps: Deps; stop(): Promise<void> }

export async function startServer(config: Config, opts: { jobs?: boolean } = {}): Promise<RunningServer> {
  const opened = openDb(config.dbPath)
  if (opened.migrations.applied.length) log.info('database migrated', { applied: opened.migrations.applied.join(',') })
  const deps: Deps = { config, db: opened.db, sqlite: opened.sqlite, bus: new EventBus(), now: () => new Date() }
  const app = createApp(deps)
  app.listen({ port: config.port, hostname: config.host })
  const server = app.server!
  const port = server.port!
  const base = `http://${config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host}:${port}`

  // Capture the bundled app shell so unknown pages can answer 404 with the app's not-found page.
  try {
    appShell.html = await (await fetch(`${base}/404`)).text()
  } catch (err) {
    log.warn('could not capture the app shell', { error: String(err) })
  }

  const jobs: RunningJobs | null = opts.jobs === false ? null : startJobs(deps, jobList(deps))
  log.info(`${config.appName} listening`, { url: config.appUrl, port, data: config.dataDir, demo: config.demo })

  let stopping: Promise<void> | null = null
  const stop = () =>
    (stopping ??= (async () => {
      await jobs?.stop()
      await server.stop(true)
      clearServerFile(config.dataDir) // CLI commands stop relaying to a server that is gone
      opened.close()
    })())
  return { url: base, port, deps, stop }
}

/** SIGTERM/SIGINT: stop jobs, close sockets, checkpoint and close the db, exit within 10 s. */
export function handleSignals(running: RunningServer) {
  const onSignal = (signal: string) => {
    log.info(`received ${signal}, shutting down`)
    const force = setTimeout(() => {
      log.error('shutdown took longer than 10 s, exiting')
      process.exit(1)
    }, 10_000)
    force.unref()
    running
      .stop()
      .then(() => process.exit(0))
      .catch((err) => {
        log.error('shutdown failed', { error: String(err) })
        process.exit(1)
      })
  }
  process.on('SIGTERM', () => onSignal('SIGTERM'))
  process.on('SIGINT', () => onSignal('SIGINT'))
}
