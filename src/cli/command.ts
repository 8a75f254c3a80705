// The shape of an operator command (the table is src/commands.ts). A command that needs the
// database asks for it through `withContext`: the caller opens it with the services the command
// uses and relays the command's bus events to a running server (src/commands.ts).
import type { Config } from '../config'
import type { Args } from './args'

/** Runs `fn` on a fresh context; `relayed` words the line printed when events reached a running server. */
export type WithContext<Ctx> = <T>(fn: (ctx: Ctx) => Promise<T> | T, relayed: (sent: number) => string) => Promise<T>

export type Command<Ctx> = {
  name: string
  usage: string
  summary: string
  run: (config: Config, args: Args, withContext: WithContext<Ctx>) => Promise<number | void> | number | void
  /** when the configuration does not load: report it this way (exit code) instead of the usual one line and 78 */
  configFailed?: (message: string) => number
}
