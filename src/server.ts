// Starts the whole service in one process, in this order: database → services (src/services.ts)
// → bus listeners → HTTP + WebSocket server → app shell → background jobs (and the demo forum's
// accounts under DEMO=1). Stops them in reverse order on SIGTERM/SIGINT within 10 seconds.
import { createApp } from './app'
import type { Config } from './config'
import { openDatabase } from './db/open'
import { joinCluster } from './cluster/node'
import { detectRestore } from './db/restore'
import { upgradeTwoFactorStorage } from './auth/two-factor'
import { seedDemo } from './demo/seed'
import type { Deps } from './deps'
import { startJobs, type RunningJobs } from './jobs/schedule'
import { EventBus } from './lib/bus'
import { log } from './lib/log'
import { MAIL_FROM_FIX, mailFromProblem } from './lib/mail-domain'
import { dispatchOwed } from './notify/dispatcher'
import { forumNotice } from './scanner/source'
import { recoverStuckSending } from './outbox/queue'
import { startLagMonitor } from './lib/event-loop-lag'
import { clearServerFile } from './realtime/relay'
import { attachListeners, createServices, jobList, restoreStore, type AppContext } from './services'
import { captureShell, startUiBundle, warmAssets, type AppShell, type UiBundle } from './web/pages'

export type RunningServer = { url: string; port: number; deps: AppContext; stop(): Promise<void> }

/** `checkModels`: tests only (createApp in src/app.ts). */
export async function startServer(config: Config, opts: { jobs?: boolean; checkModels?: boolean } = {}): Promise<RunningServer> {
  const opened = await openDatabase(config)
  if (opened.migrations.applied.length) log.info('database migrated', { engine: opened.engine, applied: opened.migrations.applied.join(',') })
  // a restored SQLite file is noticed by DATA_DIR's note of the newest post seen (PostgreSQL keeps no such note on one machine)
  if (opened.sqlite) await detectRestore(opened, config.dataDir, Date.now(), restoreStore)
  const deps: Deps = { config, db: opened.db, sqlite: opened.sqlite, bus: new EventBus(), now: () => new Date() }
  // Two-factor rows from before sealing and salted hashing (clear secrets, short codes' bare SHA-256).
  const upgraded = await upgradeTwoFactorStorage(deps)
  if (upgraded.secrets + upgraded.recoveryCodes > 0) log.info('two-factor storage upgraded', upgraded)
  const services = await createServices(deps)
  const notice = await forumNotice(deps) // the spec's default accessories forum, closed by Reddit: said once at start
  if (notice) log.warn(notice)
  const ctx: AppContext = { ...deps, ...services }
  // one node among several on PostgreSQL (leadership, socket fan-out: src/cluster/node.ts); alone on SQLite
  const node = await joinCluster(deps, { onGap: () => log.warn('cluster: sockets closed to refetch after missed events', { count: services.hub.resync() }) })
  if (config.databaseUrl !== null) log.info('cluster node joined', { node: node.id, scanner: node.holder.isLeader ? 'held here' : 'held by another node' })
  startLagMonitor() // the event-loop lag the admin System Resources card shows
  const runJobs = opts.jobs !== false
  // Without jobs (tests) nothing delivers the outbox: it is not woken either.
  const detach = attachListeners(deps, {
    hub: services.hub,
    dispatcher: services.dispatcher,
    metrics: services.metrics,
    outbox: runJobs ? services.outbox : undefined,
    expiry: runJobs ? services.expiry : undefined,
    remote: node.fannedIn,
  })

  // Production: a private loopback server builds the UI; the app serves its pages with our headers.
  const bundle: UiBundle | null = config.development ? null : startUiBundle()
  const shell: AppShell = { html: null, assets: bundle?.origin ?? null, appName: config.appName }
  const app = createApp(ctx, shell, { checkModels: opts.checkModels })
  app.listen({ port: config.port, hostname: config.host })
  const server = app.server!
  const port = server.port!
  const base = `http://${config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host}:${port}`

  // Capture the bundled app shell (every page and the not-found answer serve it).
  try {
    await captureShell(shell, bundle?.origin ?? base, bundle ? '/' : '/404')
  } catch (err) {
    log.warn('could not capture the app shell', { error: String(err) })
  }

  let jobs: RunningJobs | null = null
  if (runJobs) {
    const maybeSent = await recoverStuckSending(deps)
    if (maybeSent > 0)
      log.warn(`outbox: ${maybeSent} message(s) were being sent when the process stopped; push goes again now, email 10 minutes after its attempt`)
    services.metrics.maybeSentRecovered(maybeSent)
    // Matches stored by a process that stopped before queueing their alerts (src/matches/owed.ts).
    const owed = await dispatchOwed(ctx)
    if (owed > 0) log.warn(`alerts: ${owed} match(es) were stored but their alerts not queued when the process stopped; queued now`)
    jobs = startJobs(ctx, jobList(ctx), undefined, node.holder)
    services.expiry.rearm().catch((err: unknown) => log.error('access expiry watch failed', { error: String(err) }))
    if (bundle) void warmAssets(shell, base).catch(() => {})
    if (config.demo) seedDemo(ctx).catch((err) => log.error('demo seed failed', { error: String(err) }))
  }
  // Mail that leaves (SMTP_URL) from a sender no receiver can authenticate lands in spam: said once.
  const mailProblem = config.smtpUrl ? mailFromProblem(config.mailFrom) : null
  if (mailProblem) log.warn(`${mailProblem}; receivers will treat alert emails as spam`, { fix: MAIL_FROM_FIX })
  log.info(`${config.appName} listening`, { url: config.appUrl, port, data: config.dataDir, database: `${opened.engine} ${opened.where}`, demo: config.demo })

  let stopping: Promise<void> | null = null
  const stop = () =>
    (stopping ??= (async () => {
      await jobs?.stop()
      await node.stop() // gives the scanner lock back at once: another node takes it at its next try
      services.expiry.stop()
      await services.outbox.stop() // a delivery in flight ends first; then the channels (SMTP pool) close
      await server.stop(true)
      bundle?.stop()
      detach()
      clearServerFile(config.dataDir) // CLI commands stop relaying to a server that is gone
      await opened.close()
    })())
  return { url: base, port, deps: ctx, stop }
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
