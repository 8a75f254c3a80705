// `dibs healthcheck`: the container's HEALTHCHECK without curl. It asks the server on this machine
// (127.0.0.1:PORT) whether it is ready: GET /readyz, or /healthz where /readyz is not there (a
// server without it answers 404). Exit 0 on 200, 1 on anything else, within the timeout.
export type HealthcheckResult = { ok: boolean; line: string }

export async function healthcheck(port: number, timeoutMs = 4000, fetcher: typeof fetch = fetch): Promise<HealthcheckResult> {
  const base = `http://127.0.0.1:${port}`
  const deadline = AbortSignal.timeout(timeoutMs)
  try {
    let path = '/readyz'
    let res = await fetcher(base + path, { signal: deadline })
    if (res.status === 404) {
      await res.body?.cancel()
      path = '/healthz'
      res = await fetcher(base + path, { signal: deadline })
    }
    const text = (await res.text()).slice(0, 300).replace(/\s+/g, ' ')
    return { ok: res.status === 200, line: `${path} ${res.status}${text ? ` ${text}` : ''}` }
  } catch (err) {
    const why = deadline.aborted ? `no answer within ${timeoutMs} ms` : String(err instanceof Error ? err.message : err)
    return { ok: false, line: `${base}: ${why}` }
  }
}
