// The base of the webhook, ntfy and Discord fakes: an HTTP server on a loopback port that records
// every request (method, path, headers, raw body) and answers what the test scripts, in order
// (`failNext(500)`, `failNext(429, {retryAfter: 2})`), then its normal answer.
export type Recorded = { method: string; path: string; headers: Record<string, string>; body: string; at: number }
export type Scripted = { status: number; body?: string; headers?: Record<string, string> }

/** A service's round trip (benchmarks set it: real APIs answer in tens of milliseconds, not microseconds). */
let latencyMs = 0
export function setFakeLatency(ms: number) {
  latencyMs = ms
}

export function recordingServer(normal: (req: Recorded) => Scripted, validate?: (req: Recorded) => Scripted | null) {
  const received: Recorded[] = []
  const script: Scripted[] = []
  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    async fetch(request) {
      const url = new URL(request.url)
      const rec: Recorded = {
        method: request.method,
        path: url.pathname,
        headers: Object.fromEntries(request.headers),
        body: await request.text(),
        at: Date.now(),
      }
      received.push(rec)
      if (latencyMs > 0) await Bun.sleep(latencyMs)
      const answer = script.shift() ?? validate?.(rec) ?? normal(rec)
      return new Response(answer.body ?? null, { status: answer.status, headers: answer.headers })
    },
  })
  return {
    url: `http://127.0.0.1:${server.port}`,
    received,
    failNext(...answers: Scripted[]) {
      script.push(...answers)
    },
    stop: () => server.stop(true),
  }
}
