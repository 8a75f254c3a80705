#!/usr/bin/env bun
// CLI entry of the single program: `dibs serve` (default) and the operator commands.
import { ConfigError, loadConfig, type Config } from './config'
import { parseArgs, UsageError } from './cli/args'
import { commands, helpText, withCliContext } from './commands'
import { setLogLevel } from './lib/log'

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
  if (config === null) return 78
  setLogLevel(config.logLevel)
  try {
    return (await command.run(config, args, (fn, relayed) => withCliContext(config, fn, relayed))) ?? 0
  } catch (err) {
    if (err instanceof UsageError) {
      console.error(`${err.message}\nusage: ${command.usage}`)
      return 2
    }
    console.error(`${name} failed: ${err instanceof Error ? err.message : String(err)}`)
    return 1
  }
}

/** The configuration, or null after printing the one line that names the bad variable. */
function readConfig(): Config | null {
  try {
    return loadConfig()
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err
    console.error(`configuration error: ${err.message}`)
    return null
  }
}

process.exit(await main(process.argv.slice(2)))
