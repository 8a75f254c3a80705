// One-line structured logging to stdout/stderr. Level comes from config (LOG_LEVEL), the format
// from LOG_FORMAT: `text` (default: "<time> <LEVEL> <message> key=value …") or `json` (one object
// per line: {time, level, message, …fields}, the same fields, for log shippers).
// The last RING_SIZE lines (info and above, and debug when LOG_LEVEL=debug) are also kept in
// memory, whatever LOG_LEVEL prints, for the admin Logs page (recentLogLines).
type Level = 'debug' | 'info' | 'warn' | 'error' | 'silent'
export type LogLevel = Exclude<Level, 'silent'>
export type LogLine = { seq: number; at: string; level: LogLevel; text: string }
const order: Record<Level, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 }
let threshold = order.info

let format: 'text' | 'json' = 'text'

export function setLogLevel(level: Level) {
  threshold = order[level]
}

export function setLogFormat(f: 'text' | 'json') {
  format = f
}

/** A field's value as the log shows it: an Error by its message. */
const plain = (v: unknown) => (v instanceof Error ? v.message : v)

/** The JSON line: time, level, message, then the fields (those named like the first three are prefixed with `field_`). */
export function jsonLine(at: string, level: LogLevel, msg: string, fields?: Record<string, unknown>): string {
  const out: Record<string, unknown> = { time: at, level, message: msg }
  for (const [k, v] of Object.entries(fields ?? {})) if (v !== undefined) out[k in out ? `field_${k}` : k] = plain(v)
  return JSON.stringify(out)
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
        .map(([k, v]) => `${k}=${typeof v === 'string' && !/\s/.test(v) ? v : JSON.stringify(plain(v))}`)
        .join(' ')
    : ''
  const at = new Date().toISOString()
  if (keep) remember(level, at, `${msg}${extra}`)
  if (order[level] < threshold) return
  const line = format === 'json' ? jsonLine(at, level, msg, fields) : `${at} ${level.toUpperCase().padEnd(5)} ${msg}${extra}`
  if (order[level] >= order.warn) console.error(line)
  else console.log(line)
}

export const log = {
  debug: (msg: string, fields?: Record<string, unknown>) => write('debug', msg, fields),
  info: (msg: string, fields?: Record<string, unknown>) => write('info', msg, fields),
  warn: (msg: string, fields?: Record<string, unknown>) => write('warn', msg, fields),
  error: (msg: string, fields?: Record<string, unknown>) => write('error', msg, fields),
}
