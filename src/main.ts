#!/usr/bin/env bun
// CLI entry of the single program: `dibs serve` (default) and the operator commands.
import { ConfigError, loadConfig, type Config } from './config'
import { parseArgs, UsageError } from './cli/args'
import { commands, helpText, withCliContext } from './commands'
import { DataDirError } from './lib/data-dir'
import { log, setLogFormat, setLogLevel } from './lib/log'
import { isStorageFull } from './lib/storage'

// Every file this process creates (database, -wal/-shm, backups, dev outbox) is private to the
// service user; src/db/client.ts also chmods the database files it opens.
process.umask(0o077)

async function main(argv: string[]): Promise<number> {
  const args = parseArgs(argv)
  if (args.flags.help || args.flags.h || args._[0] === 'help') {
    console.log(helpText())
    return 0
  }
  const name = args._.shift() ?? 'serve'
  const command = commands.find((c) => c.name === name)
  if (!command) {
    console.error(`unknown command "${name}"\n\n${helpText()}`)
    return 2
  }
  const config = readConfig()
  if (typeof config === 'string') {
    if (command.configFailed) return command.configFailed(config)
    console.error(config)
    return 78
  }
  setLogLevel(config.logLevel)
  setLogFormat(config.logFormat)
  if (config.dataDirWarning) log.warn(config.dataDirWarning)
  try {
    return (await command.run(config, args, (fn, relayed) => withCliContext(config, fn, relayed))) ?? 0
  } catch (err) {
    if (err instanceof UsageError) {
      console.error(`${err.message}\nusage: ${command.usage}`)
      return 2
    }
    console.error(`${name} failed: ${reason(err)}`)
    if (err instanceof Error && err.stack) log.debug(err.stack)
    return 1
  }
}

/** One line for an error: storage trouble is named as such, the rest by its message. */
function reason(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err)
  return isStorageFull(err) ? `storage is full (${message})` : message.split('\n')[0]!
}

/**
 * The configuration, or the one line that says why not: the bad variable (ConfigError), or the
 * directory and its problem (DataDirError: "DATA_DIR /data is not writable by uid 10001").
 */
function readConfig(): Config | string {
  try {
    return loadConfig()
  } catch (err) {
    if (err instanceof ConfigError) return `configuration error: ${err.message}`
    if (err instanceof DataDirError) return err.message
    return `configuration error: ${reason(err)}`
  }
}

process.exit(
  await main(process.argv.slice(2)).catch((err) => {
    console.error(`dibs: ${reason(err)}`)
    return 1
  }),
)
