// What the external channels (every provider of registry.ts) share: the endpoint read at send time, the SSRF
// check of its URL before every send (the name may resolve elsewhere than when it was saved),
// one POST without following redirects (a redirect could point inward), and the outcome recorded
// on the endpoint (`last_result`, shown in Notification Settings). Retry rules: 2xx done; 429 and
// 5xx and network errors retry (429 no sooner than the service's Retry-After / retry_after);
// other 4xx and refused URLs fail for good.
import type { notifyEndpoints, OutboxRow } from '../../db/schema'
import type { Deps } from '../../deps'
import { checkPublicUrl, type Resolver } from '../../lib/public-url'
import { PermanentFailure, RetryLater } from '../queue'
import type { ChannelStore } from './types'

export type Endpoint = typeof notifyEndpoints.$inferSelect
export type HttpOpts = { resolve?: Resolver; timeoutMs?: number }
export type PostResult = { status: number; text: string; headers: Headers }

/** One POST (or `method`) to a checked URL; throws PermanentFailure for a refused URL, Error on network failure. */
export async function postTo(
  deps: Pick<Deps, 'config'>,
  url: string,
  headers: Record<string, string>,
  body: string,
  opts: HttpOpts = {},
  method: 'POST' | 'PUT' = 'POST',
): Promise<PostResult> {
  const check = await checkPublicUrl(url, { allowPrivate: deps.config.channelsAllowPrivate, resolve: opts.resolve })
  if (!check.ok) throw new PermanentFailure(`URL refused: ${check.reason}`)
  const res = await fetch(check.url, { method, headers, body, redirect: 'manual', signal: AbortSignal.timeout(opts.timeoutMs ?? 10_000) })
  const text = await res.text().catch(() => '')
  return { status: res.status, text: text.slice(0, 300), headers: res.headers }
}

/** Seconds of a Retry-After header (delta form), or null. */
export function retryAfterHeaderMs(headers: Headers): number | null {
  const v = headers.get('retry-after')
  if (v === null || !/^\d+(\.\d+)?$/.test(v.trim())) return null
  return Math.ceil(Number(v) * 1000)
}

/** Throws as the retry rules say for a non-2xx answer. */
export function judge(r: PostResult, retryAfterMs: number | null = retryAfterHeaderMs(r.headers)): void {
  if (r.status >= 200 && r.status < 300) return
  const what = `answered ${r.status}${r.text ? `: ${r.text.slice(0, 120)}` : ''}`
  if (r.status === 429) throw new RetryLater(what, retryAfterMs ?? 0)
  if (r.status >= 500 || r.status === 408) throw new Error(what)
  throw new PermanentFailure(what)
}

export async function readEndpoint(deps: Pick<Deps, 'db'>, store: Pick<ChannelStore, 'endpoint'>, row: OutboxRow): Promise<Endpoint> {
  const { endpointId } = row.payload as { endpointId: number }
  const ep = await store.endpoint(deps, endpointId)
  if (!ep) throw new PermanentFailure('the channel was removed')
  return ep
}

/**
 * Records the outcome of a send on the endpoint (`last_result`, shown in Notification Settings):
 * 'delivered (204)', or 'failed (401: <what the provider said, in words>)' / 'failed (<error>)', then
 * rethrows. `check` judges the answer (the provider's own reading of its errors, else `judge`).
 */
export async function recording(
  deps: Pick<Deps, 'db' | 'now'>,
  store: Pick<ChannelStore, 'recordResult'>,
  endpointId: number,
  send: () => Promise<PostResult>,
  check: (r: PostResult) => void = (r) => judge(r),
): Promise<PostResult> {
  const write = (result: string) => store.recordResult(deps, endpointId, result)
  let r: PostResult
  try {
    r = await send()
  } catch (err) {
    await write(`failed (${err instanceof Error ? err.message : String(err)})`)
    throw err
  }
  try {
    check(r)
  } catch (err) {
    const words = (err instanceof Error ? err.message : String(err)).replace(new RegExp(`^answered ${r.status}:? ?`), '')
    await write(`failed (${r.status}${words ? `: ${words.slice(0, 200)}` : ''})`)
    throw err
  }
  await write(`delivered (${r.status})`)
  return r
}
