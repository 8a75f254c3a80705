// Worker for bench/ingest-browser.ts: the "browsers". Opens one socket per session token on its own
// thread (so the server's event loop never delays the reading side) and stamps every match.new
// with an absolute time (timeOrigin + now, comparable across threads).
const worker = self as unknown as Worker

let arrivals: number[] = []
worker.onmessage = async (e: MessageEvent) => {
  const msg = e.data as { kind: 'open'; url: string; origin: string; cookies: string[] } | { kind: 'take' }
  if (msg.kind === 'take') {
    worker.postMessage({ kind: 'arrivals', arrivals })
    arrivals = []
    return
  }
  await Promise.all(
    msg.cookies.map(
      (cookie) =>
        new Promise<void>((resolve, reject) => {
          const ws = new WebSocket(msg.url, { headers: { origin: msg.origin, cookie } } as never)
          ws.onmessage = (ev) => {
            const m = JSON.parse(String(ev.data)) as { type: string }
            if (m.type === 'hello') resolve()
            else if (m.type === 'match.new') arrivals.push(performance.timeOrigin + performance.now())
          }
          ws.onerror = () => reject(new Error('socket failed'))
        }),
    ),
  )
  worker.postMessage({ kind: 'open' })
}
