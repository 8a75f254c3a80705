// Event-loop lag: a timer every 500 ms notes how late it fired. Started once by src/server.ts (a
// measurement, not a job: it must fire on its own timer to see the loop's lateness) and unref'd,
// so it never keeps a process alive. Read by the admin System Resources card and GET /metrics.
const LAG_INTERVAL_MS = 500
const LAG_SAMPLES = 20 // the last 10 s

const lagSamples: number[] = []
let lagTimer: ReturnType<typeof setInterval> | null = null

export function startLagMonitor() {
  if (lagTimer !== null) return
  let expected = performance.now() + LAG_INTERVAL_MS
  lagTimer = setInterval(() => {
    const now = performance.now()
    lagSamples.push(Math.max(0, now - expected))
    if (lagSamples.length > LAG_SAMPLES) lagSamples.shift()
    expected = now + LAG_INTERVAL_MS
  }, LAG_INTERVAL_MS)
  ;(lagTimer as { unref?: () => void }).unref?.()
}

export function eventLoopLag(): { lastMs: number | null; meanMs: number | null; maxMs: number | null; windowSeconds: number } {
  const n = lagSamples.length
  const r = (x: number) => Math.round(x * 10) / 10
  if (n === 0) return { lastMs: null, meanMs: null, maxMs: null, windowSeconds: 0 }
  return {
    lastMs: r(lagSamples[n - 1]!),
    meanMs: r(lagSamples.reduce((a, b) => a + b, 0) / n),
    maxMs: r(Math.max(...lagSamples)),
    windowSeconds: (n * LAG_INTERVAL_MS) / 1000,
  }
}
