// Adding, editing, removing sources: the checks and the effects the admin's Logs page and `dibs sources` share.
// A feed URL is checked like an outgoing channel URL when it is saved (http(s), no credentials, and unless
// ALLOW_PRIVATE_SOURCES=1 no loopback, private or link-local address after resolving the name) and again on every
// fetch and redirect (src/sources/feed-fetch.ts). Each change is audited by the caller (src/audit/log.ts) and
// applies without a restart: the Reddit client reads the enabled reddit sources at its next poll, the feed poller
// reads the table at each tick.
import type { Deps } from '../deps'
import { badRequest, conflict, notFound } from '../lib/errors'
import { checkPublicUrl, type Resolver } from '../lib/public-url'
import { deleteSource, getSource, insertSource, readSourceInput, rotateSecret, updateSource, type SourceInput, type SourceRow } from '../sources/store'
import { sourceView, type SourceView } from '../sources/view'
import type { PollOutcome, SourceRunner } from './feeds'

/** Reads an admin's or operator's input and checks its feed URL's address; a 400 naming the field otherwise. */
export async function checkedInput(deps: Pick<Deps, 'config'>, raw: unknown, before: SourceRow | null, resolve?: Resolver): Promise<SourceInput> {
  const r = readSourceInput(raw, before)
  if (!r.ok) throw badRequest(`${r.field}: ${r.message}`, 'INVALID_SOURCE', { field: r.field })
  const input = r.value
  if (input.kind === 'feed' && input.url) {
    const check = await checkPublicUrl(input.url, { allowPrivate: deps.config.allowPrivateSources, allowHttp: true, resolve })
    if (!check.ok) throw badRequest(`url: ${check.reason}`, 'INVALID_SOURCE', { field: 'url' })
  }
  return input
}

export type Added = { source: SourceView; secret: string | null; ingested: PollOutcome | null }

/** A new source; a push source's secret comes back once. With the server's runner, the posts its preview showed are stored and matched now. */
export async function addSource(deps: Pick<Deps, 'sqlite' | 'config' | 'now'>, raw: unknown, runner?: SourceRunner): Promise<Added> {
  const input = await checkedInput(deps, raw, null)
  const row = insertSource(deps.sqlite, input, deps.now().getTime())
  const ingested = runner?.saved(row) ?? null
  return { source: sourceView(deps, getSource(deps.sqlite, row.id)!), secret: row.secret, ingested }
}

export async function editSource(deps: Pick<Deps, 'sqlite' | 'config' | 'now'>, id: number, raw: unknown, runner?: SourceRunner): Promise<SourceView> {
  const before = getSource(deps.sqlite, id)
  if (!before) throw notFound('No such source.')
  const input = await checkedInput(deps, raw, before)
  const row = updateSource(deps.sqlite, before, input, deps.now().getTime())
  runner?.saved(row)
  return sourceView(deps, row)
}

export function removeSource(deps: Pick<Deps, 'sqlite'>, id: number, runner?: SourceRunner): SourceRow {
  const before = getSource(deps.sqlite, id)
  if (!before || !deleteSource(deps.sqlite, id)) throw notFound('No such source.')
  runner?.applied()
  return before
}

export function rotateSourceSecret(deps: Pick<Deps, 'sqlite' | 'now'>, id: number): { secret: string } {
  const s = getSource(deps.sqlite, id)
  if (!s) throw notFound('No such source.')
  if (s.kind !== 'push') throw conflict('Only a push source has a secret.', 'NOT_PUSH')
  return { secret: rotateSecret(deps.sqlite, id, deps.now().getTime()) }
}
