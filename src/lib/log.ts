// One-line structured logging to stdout/stderr. Level comes from config (LOG_LEVEL).
// The last RING_SIZE lines (info and above, and debug when LOG_LEVEL=debug) are also kept in
// memory, whatever LOG_LEVEL prints, for the admin Logs page (recentLogLines).
type Level = 'debug' | 'info' | 'warn' | 'error' | 'silent'
export type LogLevel = Exclude<Level, 'silent'>
export type LogLine = { seq: number; at: string; level: LogLevel; text: string }
const order: Record<Level, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 }
let threshold = order.info

export function setLogLevel(level: Level) {
  threshold = order[level]
}

export const RING_SIZE = 500
const ring: LogLine[] = []
let seq = 0

function remember(level: LogLevel, at: string, text: string) {
  ring.push({ seq: ++seq, at, level, text })
  if (ring.length > RING_SIZE) ring.shift()
}

/** The kept lines after `after` (a seq), at `minLevel` or above, oldest first; at most `limit`, the newest. */
export function recentLogLines(opts: { minLevel?: LogLevel; after?: number; limit?: number } = {}): { lines: LogLine[]; lastSeq: number } {
  const min = order[opts.minLevel ?? 'debug']
  const lines = ring.filter((l) => l.seq > (opts.after ?? 0) && order[l.level] >= min)
  return { lines: lines.slice(-(opts.limit ?? RING_SIZE)), lastSeq: seq }
}

function write(level: Exclude<Level, 'silent'>, msg: string, fields?: Record<string, unknown>) {
  const keep = order[level] >= order.info || order[level] >= threshold
  if (!keep) return
  const extra = fields
    ? ' ' +
      Object.entries(fields)
        .filter(([, v]) => v !== undefined)
        .map(([k, v]) => `${k}=${typeof v === 'string' && !/\s/.test(v) ? v : JSON.stringify(v instanceof Error ? v.message : v)}`)
        .join(' ')
    : ''
  const at = new Date().toISOString()
  if (keep) remember(level, at, `${msg}${extra}`)
  if (order[level] < threshold) return
  const line = `${at} ${level.toUpperCase().padEnd(5)} ${msg}${extra}`
  if (order[level] >= order.warn) console.error(line)
  else console.log(line)
}

export const log = {
  debug: (msg: string, fields?: Record<string, unknown>) => write('debug', msg, fields),
  info: (msg: string, fields?: Record<string, unknown>) => write('info', msg, fields),
  warn: (msg: string, fields?: Record<string, unknown>) => write('warn', msg, fields),
  error: (msg: string, fields?: Record<string, unknown>) => write('error', msg, fields),
}
