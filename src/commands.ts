// The operator CLI: one table of commands (every command visible here, as every route is in
// src/app.ts), each a thin shell over an exported service function, and the CLI's wiring: the
// context a command runs on.
import { userInfo } from 'node:os'
import type { Config } from './config'
import { recordAudit, type AuditActor } from './audit/log'
import { usersCommand } from './auth/cli'
import { findUserByEmail } from './auth/service'
import { billingCommand } from './billing/cli'
import { flag, UsageError, type Args } from './cli/args'
import type { Command } from './cli/command'
import { backupDatabase } from './db/backup'
import { openDb } from './db/client'
import { openDatabase } from './db/open'
import { detectRestore, restoreDatabase, restorePointText } from './db/restore'
import type { Deps } from './deps'
import type { BusEvents } from './contract/events'
import { EventBus } from './lib/bus'
import { log } from './lib/log'
import { startFanout } from './cluster/fanout'
import { fanoutLoader } from './cluster/fanout-load'
import { MatchingService } from './matches/matcher'
import { createDispatcher } from './notify/dispatcher'
import { relayBus, serverOnDataDir } from './realtime/relay'
import { progress } from './cli/progress'
import { writeBackup } from './ops/backups'
import { ingestCommands } from './scanner/cli'
import { sourcesCommand } from './scanner/sources-cli'
import { createScanSource } from './scanner/source'
import { healthcheck } from './ops/healthcheck'
import { runDoctor } from './ops/doctor'
import { formatReport } from './ops/doctor-report'
import { handleSignals, startServer } from './server'
import { attachListeners, restoreStore, type Services } from './services'

/** `dibs backup` / `dibs restore` copy the SQLite file; with DATABASE_URL the database server's own tools do (docs/operating.md). */
const NOT_SQLITE = (what: string) => `the database is PostgreSQL (DATABASE_URL): ${what} (docs/operating.md, "PostgreSQL")`

/** What a command's `withContext` gives: Deps plus the services a CLI process has. */
export type CliContext = Deps & Pick<Services, 'matcher' | 'source'>

/**
 * The CLI's wiring: its own database handle (safe beside a running server: WAL + busy timeout)
 * and a bus that relays its events to that server, so connected browsers see the effects.
 * Without a server, match alerts are queued here and delivered by the server's outbox when it starts.
 */
export async function withCliContext<T>(config: Config, fn: (ctx: CliContext) => Promise<T> | T, relayed: (sent: number) => string): Promise<T> {
  const opened = await openDatabase(config)
  if (opened.sqlite) await detectRestore(opened, config.dataDir, Date.now(), restoreStore)
  // On PostgreSQL the CLI announces its events to every node itself (the fan-out), so no server on this DATA_DIR is needed.
  const relay = config.databaseUrl === null ? relayBus(config) : null
  const bus = relay?.bus ?? new EventBus<BusEvents>()
  const deps: Deps = { config, db: opened.db, sqlite: opened.sqlite, bus, now: () => new Date() }
  const fanout =
    config.databaseUrl === null
      ? null
      : await startFanout({
          url: config.databaseUrl,
          nodeId: `cli-${process.pid}`,
          bus,
          load: fanoutLoader(deps),
          relay: true,
          report: (r) => log.warn(r.message),
        })
  // The term index loads all saved terms: built only when a command matches (scan, match), filed by its first sync().
  let matcher: MatchingService | null = null
  const ctx: CliContext = {
    ...deps,
    get matcher() {
      return (matcher ??= new MatchingService(deps))
    },
    source: await createScanSource(deps),
  }
  // Alerts of the matches a CLI command stores: queued by the running server's dispatcher when one gets the events (SQLite), else here.
  const dispatcher = relay?.serverRunning() ? undefined : createDispatcher(deps)
  const detach = attachListeners(deps, { dispatcher })
  try {
    const result = await fn(ctx)
    await dispatcher?.flush()
    const sent = (await relay?.flush()) ?? 0
    if (sent > 0) console.log(relayed(sent))
    return result
  } finally {
    detach()
    await fanout?.stop()
    await opened.close()
  }
}

/** The CLI as an audit actor: 'cli:<OS user>', or 'cli' when the OS user is unknown (a uid without a passwd entry). */
export function cliActor(): AuditActor {
  try {
    return { cli: userInfo().username || null }
  } catch {
    return { cli: null }
  }
}

/** What a state-changing command records (the admin pages' action names); null: this run changes nothing. */
type CliAudit = {
  action: string
  /** an account's email: the row's target becomes 'user:<id>', as on the Users page */
  email?: string
  target?: string
  details?: Record<string, unknown>
}

/**
 * Every state-changing command writes an audit row, as the admin pages do: actor the CLI (with the OS
 * user), result 'ok', or 'failed' with the error when it throws or exits non-zero. A usage error changed
 * nothing and writes none. The row goes into DATA_DIR's database after the command, so it lands beside
 * a running server's rows and shows in Recent Activity and the user detail.
 */
function audited<C>(command: Command<C>, describe: (args: Args) => CliAudit | null): Command<C> {
  return {
    ...command,
    async run(config, args, withContext) {
      const entry = describe(args)
      if (entry === null) return command.run(config, args, withContext)
      let code: number | void
      try {
        code = await command.run(config, args, withContext)
      } catch (err) {
        if (!(err instanceof UsageError)) await writeCliAudit(config, entry, 'failed', (err as Error).message)
        throw err
      }
      await writeCliAudit(config, entry, code ? 'failed' : 'ok', code ? `exit code ${code}` : undefined)
      return code
    },
  }
}

async function writeCliAudit(config: Config, entry: CliAudit, result: 'ok' | 'failed', error?: string): Promise<void> {
  const opened = await openDatabase(config)
  try {
    const deps = { db: opened.db, now: () => new Date() }
    const user = entry.email ? await findUserByEmail(deps, entry.email) : undefined
    const details = { ...entry.details, ...(entry.email ? { email: entry.email.toLowerCase() } : {}), ...(error ? { error } : {}) }
    await recordAudit(deps, { actor: cliActor(), action: entry.action, target: user ? `user:${user.id}` : (entry.target ?? null), details, result })
  } catch (err) {
    throw new Error(`the command ran, but its audit row could not be written: ${(err as Error).message}`)
  } finally {
    await opened.close()
  }
}

/** `dibs users <sub>`: the Users page's action per subcommand ('list' changes nothing). */
function usersAudit(args: Args): CliAudit | null {
  const [sub, email, value] = args._
  switch (sub) {
    case 'create':
      return { action: 'user.create', email: flag(args, 'email'), details: { role: flag(args, 'role') ?? null, confirmed: args.flags.confirmed !== undefined } }
    case 'set-role':
      return { action: 'user.role', email, details: { role: value } }
    case 'grant':
      return { action: 'user.grant', email, details: { plan: value, until: flag(args, 'until') ?? null } }
    case 'reset-2fa':
      return { action: 'user.reset_2fa', email }
    default:
      return null
  }
}

/** `dibs sources <sub>`: the Logs page's Sources actions ('list', 'test' and 'presets' change nothing). */
function sourcesAudit(args: Args): CliAudit | null {
  const [sub, id] = args._
  const target = id === undefined ? undefined : `source:${id}`
  switch (sub) {
    case 'add': {
      const given = ['kind', 'forum', 'preset', 'name', 'url', 'subreddits'].map((k) => [k, flag(args, k) ?? null])
      return { action: 'source.add', details: { ...Object.fromEntries(given), enabled: args.flags.disabled === undefined } }
    }
    case 'remove':
      return { action: 'source.remove', target }
    case 'enable':
    case 'disable':
      return { action: 'source.edit', target, details: { enabled: sub === 'enable' } }
    case 'rotate-secret':
      return { action: 'source.rotate_secret', target }
    default:
      return null
  }
}

/** The audit row of each state-changing ingestion command (src/scanner/cli.ts), by name. */
const INGEST_AUDIT: Record<string, (args: Args) => CliAudit> = {
  scan: () => ({ action: 'scanner.scan' }),
  match: (args) => ({ action: 'matching.batch', details: { since: flag(args, 'since') ?? '24h' } }),
  'backfill-post-types': () => ({ action: 'posts.backfill_types' }),
  'archive-posts': (args) => ({ action: 'posts.archive', details: { older_than: flag(args, 'older-than') ?? '7d' } }),
}

export const commands: Command<CliContext>[] = [
  {
    name: 'serve',
    usage: 'dibs serve',
    summary: 'Start the web app, API, WebSocket stream and background jobs (default command)',
    async run(config) {
      const running = await startServer(config)
      handleSignals(running)
      await new Promise(() => {}) // run until a signal stops the process
    },
  },
  {
    name: 'migrate',
    usage: 'dibs migrate',
    summary: 'Apply pending database migrations and exit (the server also does this at startup)',
    async run(config) {
      const opened = await openDatabase(config)
      const { applied, total } = opened.migrations
      if (applied.length > 0)
        await recordAudit({ db: opened.db, now: () => new Date() }, { actor: cliActor(), action: 'db.migrate', details: { applied: applied.join(', ') } })
      await opened.close()
      console.log(applied.length ? `applied ${applied.length} migration(s): ${applied.join(', ')}` : `database is up to date (${total} migration(s))`)
    },
  },
  {
    name: 'backup',
    usage: 'dibs backup [<file>]',
    summary:
      'Write a consistent copy of the live database to <file> and verify it (integrity check); without <file>, into DATA_DIR/backups (keeping BACKUP_KEEP)',
    async run(config, args) {
      if (config.databaseUrl !== null) throw new Error(NOT_SQLITE('back it up with pg_dump on the database server'))
      const target = args._[0]
      const bar = progress('backup')
      if (!target) {
        const opened = openDb(config.dbPath)
        try {
          const r = await writeBackup({ config, db: opened.db, now: () => new Date() }, (step, done, total) => bar.update(step, done, total))
          bar.end()
          console.log(
            `backup written: ${r.file} (${(r.bytes / 1024).toFixed(0)} KiB, integrity ${r.integrity}; ${r.kept} kept, ${r.deleted.length} older removed)`,
          )
        } finally {
          opened.close()
        }
        return
      }
      bar.update('copying and verifying the database', 0, 1)
      const r = backupDatabase(config.dbPath, target)
      bar.end()
      console.log(`backup written: ${r.file} (${(r.bytes / 1024).toFixed(0)} KiB, ${r.tables} tables, integrity ${r.integrity})`)
      // The admin Database page shows the last backup: it learns of this one from the audit log.
      const opened = openDb(config.dbPath)
      try {
        await recordAudit({ db: opened.db, now: () => new Date() }, { actor: cliActor(), action: 'db.backup', target: r.file, details: { bytes: r.bytes } })
      } finally {
        opened.close()
      }
    },
  },
  {
    name: 'restore',
    usage: 'dibs restore <file>',
    summary:
      'Replace the database with a verified backup (refused while a server runs on DATA_DIR; the replaced file is kept); posts fetched again up to the restore point send no alerts',
    async run(config, args) {
      if (config.databaseUrl !== null) throw new Error(NOT_SQLITE('restore it with pg_restore (or psql for a plain dump) on the database server'))
      const file = args._[0]
      if (!file) throw new UsageError('restore needs a backup file: dibs restore <file>')
      const server = await serverOnDataDir(config)
      if (server) throw new Error(`a server is running on ${config.dataDir} (pid ${server.pid}, port ${server.port}); stop it first`)
      const bar = progress('restore')
      const r = await restoreDatabase(config.dbPath, config.dataDir, file, new Date(), restoreStore, (step, done, total) => bar.update(step, done, total))
      bar.end()
      console.log(`restored ${r.file} → ${config.dbPath}${r.previous ? ` (previous database kept as ${r.previous})` : ''}`)
      // Recorded in the restored database: it is the one the admin pages read from now on.
      const opened = openDb(config.dbPath)
      try {
        await recordAudit(
          { db: opened.db, now: () => new Date() },
          { actor: cliActor(), action: 'db.restore', target: r.file, details: { previous: r.previous ?? null } },
        )
      } finally {
        opened.close()
      }
      console.log(restorePointText(r.point.at))
    },
  },
  {
    name: 'doctor',
    usage: 'dibs doctor',
    summary:
      'Check the setup (configuration, DATA_DIR, database, Reddit, SMTP, mail authentication, keys, APP_URL, clock); ✓/!/✗ with a fix each, exit 1 on any ✗',
    async run(config) {
      const report = formatReport(await runDoctor(config))
      console.log(report.text)
      return report.exitCode
    },
    configFailed(message) {
      console.log(
        formatReport([
          { status: 'fail', name: 'configuration', detail: message, fix: 'correct that variable (docs/configuration.md) and run dibs doctor again' },
        ]).text,
      )
      return 1
    },
  },
  {
    name: 'healthcheck',
    usage: 'dibs healthcheck',
    summary: 'Exit 0 when the server on 127.0.0.1:$PORT is ready (GET /readyz), 1 otherwise: the container HEALTHCHECK, no curl needed',
    async run(config) {
      const r = await healthcheck(config.port)
      ;(r.ok ? console.log : console.error)(r.line)
      return r.ok ? 0 : 1
    },
  },
  audited(usersCommand, usersAudit),
  audited(billingCommand, (args) => ({ action: 'billing.sync', details: { reconcile: args.flags.reconcile === true } })),
  ...ingestCommands.map((c) => (INGEST_AUDIT[c.name] ? audited(c, INGEST_AUDIT[c.name]!) : c)),
  audited(sourcesCommand, sourcesAudit),
]

export function helpText(): string {
  const width = Math.max(...commands.map((c) => c.usage.length))
  return [
    'Dibs: Reddit forum match alerts (self-hosted).',
    '',
    'Usage: dibs [command] [options]   (configuration comes from environment variables; see README)',
    '',
    'Commands:',
    ...commands.map((c) => `  ${c.usage.padEnd(width)}  ${c.summary}`),
    `  ${'dibs --help'.padEnd(width)}  Show this help`,
  ].join('\n')
}
