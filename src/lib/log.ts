// One-line structured logging to stdout/stderr. Level comes from config (LOG_LEVEL).
type Level = 'debug' | 'info' | 'warn' | 'error' | 'silent'
const order: Record<Level, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 }
let threshold = order.info

export function setLogLevel(level: Level) {
  threshold = order[level]
}

function write(level: Exclude<Level, 'silent'>, msg: string, fields?: Record<string, unknown>) {
  if (order[level] < threshold) return
  const extra = fields
    ? ' ' +
      Object.entries(fields)
        .filter(([, v]) => v !== undefined)
        .map(([k, v]) => `${k}=${typeof v === 'string' && !/\s/.test(v) ? v : JSON.stringify(v instanceof Error ? v.message : v)}`)
        .join(' ')
    : ''
  const line = `${new Date().toISOString()} ${level.toUpperCase().padEnd(5)} ${msg}${extra}`
  if (order[level] >= order.warn) console.error(line)
  else console.log(line)
}

export const log = {
  debug: (msg: string, fields?: Record<string, unknown>) => write('debug', msg, fields),
  info: (msg: string, fields?: Record<string, unknown>) => write('info', msg, fields),
  warn: (msg: string, fields?: Record<string, unknown>) => write('warn', msg, fields),
  error: (msg: string, fields?: Record<string, unknown>) => write('error', msg, fields),
}
