// Tiny argv parser: positionals plus --flag value / --flag=value / --bool.
export type Args = { _: string[]; flags: Record<string, string | true> }

export function parseArgs(argv: string[]): Args {
  const out: Args = { _: [], flags: {} }
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!
    if (a.startsWith('--')) {
      const [k, v] = a.slice(2).split(/=(.*)/s, 2)
      if (v !== undefined) out.flags[k!] = v
      else if (argv[i + 1] !== undefined && !argv[i + 1]!.startsWith('--')) out.flags[k!] = argv[++i]!
      else out.flags[k!] = true
    } else out._.push(a)
  }
  return out
}

export function flag(args: Args, name: string): string | undefined {
  const v = args.flags[name]
  return typeof v === 'string' ? v : undefined
}

export class UsageError extends Error {}
