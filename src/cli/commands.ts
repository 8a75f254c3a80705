// The operator CLI: one table of commands, each a thin shell over an exported service function.
// Capabilities add their entries here (users, scan, match, backfill, archive…).
import type { Config } from '../config'
import { openDb } from '../db/client'
import { backupDatabase } from '../db/backup'
import { handleSignals, startServer } from '../server'
import type { Args } from './args'
import { UsageError } from './args'
import { ingestCommands } from '../scanner/cli'
import { usersCommand } from '../auth/cli'

export type Command = {
  name: string
  usage: string
  summary: string
  run: (config: Config, args: Args) => Promise<number | void> | number | void
}

export const commands: Command[] = [
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
    run(config) {
      const opened = openDb(config.dbPath)
      const { applied, total } = opened.migrations
      opened.close()
      console.log(applied.length ? `applied ${applied.length} migration(s): ${applied.join(', ')}` : `database is up to date (${total} migration(s))`)
    },
  },
  {
    name: 'backup',
    usage: 'dibs backup <file>',
    summary: 'Write a consistent copy of the live database to <file> and verify it (integrity check)',
    run(config, args) {
      const target = args._[0]
      if (!target) throw new UsageError('backup needs a target file: dibs backup <file>')
      const r = backupDatabase(config.dbPath, target)
      console.log(`backup written: ${r.file} (${(r.bytes / 1024).toFixed(0)} KiB, ${r.tables} tables, integrity ${r.integrity})`)
    },
  },
  usersCommand,
]

commands.push(...ingestCommands)

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
