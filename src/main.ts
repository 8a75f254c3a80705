#!/usr/bin/env bun
// CLI entry of the single program: `dibs serve` (default) and the operator commands.
import { ConfigError, loadConfig } from './config'
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
  let config
  try {
    config = loadConfig()
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(`configuration error: ${err.message}`)
      return 78
    }
    throw err
  }
  setLogLevel(config.logLevel)
  try {
    const cfg = config
    return (await command.run(cfg, args, (fn, relayed) => withCliContext(cfg, fn, relayed))) ?? 0
  } catch (err) {
    if (err instanceof UsageError) {
      console.error(`${err.message}\nusage: ${command.usage}`)
      return 2
    }
    console.error(`${name} failed: ${err instanceof Error ? err.message : String(err)}`)
    return 1
  }
}

process.exit(await main(process.argv.slice(2)))
