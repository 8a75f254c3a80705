// A source as admins and operators see it: never its secret, with its health in words. Pure.
import type { Deps } from '../deps'
import { presetByName } from './presets'
import type { SourceRow } from './store'

export type SourceHealthState = 'disabled' | 'new' | 'ok' | 'failing' | 'push'

export type SourceView = {
  id: number
  forum: 'accessories' | 'deals'
  kind: 'reddit' | 'feed' | 'push'
  name: string
  url: string | null
  subreddits: string[]
  preset: string | null
  /** the preset's title ("r/mechmarket", "Forum classifieds (XenForo …)") */
  presetTitle: string | null
  enabled: boolean
  /** push: where its posts go (POST, signed) */
  ingestUrl: string | null
  health: {
    state: SourceHealthState
    /** the health in words, for the Logs page and `dibs sources list` */
    summary: string
    lastPolledAt: string | null
    lastOkAt: string | null
    lastError: string | null
    failures: number
    /** new posts the last successful poll (or push) brought */
    lastPosts: number | null
  }
  createdAt: string
  updatedAt: string | null
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString())

function health(s: SourceRow): Pick<SourceView['health'], 'state' | 'summary'> {
  if (!s.enabled) return { state: 'disabled', summary: 'Disabled: not read' }
  if (s.failures > 0 && s.lastError) return { state: 'failing', summary: `Failing (${s.failures} in a row): ${s.lastError}` }
  if (s.lastPolledAt === null)
    return s.kind === 'push' ? { state: 'push', summary: 'Waiting for the first push' } : { state: 'new', summary: 'Not read yet: the next poll reads it' }
  const n = s.lastPosts ?? 0
  const posts = n === 1 ? '1 new post' : `${n} new posts`
  return { state: s.kind === 'push' ? 'push' : 'ok', summary: `OK: the last ${s.kind === 'push' ? 'push' : 'read'} brought ${posts}` }
}

export function sourceView(deps: Pick<Deps, 'config'>, s: SourceRow): SourceView {
  return {
    id: s.id,
    forum: s.forum,
    kind: s.kind,
    name: s.name,
    url: s.url,
    subreddits: s.subreddits,
    preset: s.preset,
    presetTitle: s.preset ? (presetByName(s.preset)?.title ?? null) : null,
    enabled: s.enabled,
    ingestUrl: s.kind === 'push' ? `${deps.config.appUrl}/api/ingest/${s.id}` : null,
    health: {
      ...health(s),
      lastPolledAt: iso(s.lastPolledAt),
      lastOkAt: iso(s.lastOkAt),
      lastError: s.lastError,
      failures: s.failures,
      lastPosts: s.lastPosts,
    },
    createdAt: new Date(s.createdAt).toISOString(),
    updatedAt: iso(s.updatedAt),
  }
}
