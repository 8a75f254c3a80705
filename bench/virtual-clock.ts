// One virtual clock for a bench run: the scanner's timers, its budget and the fake Reddit read it, and
// after `speedUp(s)` it runs `s` times faster than real time (bench/scan-latency.ts, bench/recheck.ts).
import type { Timers } from '../src/jobs/schedule'

export function virtualClock() {
  let scale = 1
  let origin = Date.now()
  let p0 = performance.now()
  const now = () => origin + (performance.now() - p0) * scale
  const timers: Timers = { now, setTimeout: (fn, ms) => setTimeout(fn, ms / scale), clearTimeout: (h) => clearTimeout(h as Timer) }
  return {
    now,
    timers,
    /** virtual milliseconds per real millisecond */
    get scale() {
      return scale
    },
    /** From now on, `s` virtual milliseconds pass per real one. */
    speedUp(s: number) {
      ;[origin, p0, scale] = [now(), performance.now(), s]
    },
    /** Waits `ms` of virtual time. */
    sleep: (ms: number) => Bun.sleep(Math.max(0, ms) / scale),
  }
}
