// The sources table (issue 25): where each of the spec's two forums gets its posts. One owner: every read and write
// of `sources` is here. A source is a subreddit list read over Reddit (kind reddit: all enabled reddit sources share
// one multireddit request), a feed URL (kind feed, src/sources/poller.ts), or posts pushed to POST /api/ingest/<id>
// (kind push, src/sources/ingest-route.ts). `readSourceInput` checks what an admin or operator gives (pure);
// `seedSources` fills the table once, on first start, from the environment (FORUM_PRESET, else
// ACCESSORIES_SUBREDDIT / DEALS_SUBREDDIT).
import type { Database } from 'bun:sqlite'
import type { Deps } from '../deps'
import { storedSetting, storeSetting } from '../settings/service'
import { presetByName, type Preset } from './presets'
import { newPushSecret } from './push'
import { chunksOf, placeholders } from '../lib/id-lists'

/** The system setting that says the table was seeded. */
const SEEDED = 'sources_seeded'

export const SOURCE_KINDS = ['reddit', 'feed', 'push'] as const
export const SOURCE_FORUMS = ['accessories', 'deals'] as const
export type SourceKind = (typeof SOURCE_KINDS)[number]
export type SourceForum = (typeof SOURCE_FORUMS)[number]

export type SourceRow = {
  id: number
  forum: SourceForum
  kind: SourceKind
  name: string
  url: string | null
  subreddits: string[]
  preset: string | null
  enabled: boolean
  secret: string | null
  etag: string | null
  lastModified: string | null
  lastPolledAt: number | null
  lastOkAt: number | null
  lastError: string | null
  failures: number
  lastPosts: number | null
  createdAt: number
  updatedAt: number | null
}

type Raw = Omit<
  SourceRow,
  'subreddits' | 'enabled' | 'forum' | 'kind' | 'lastModified' | 'lastPolledAt' | 'lastOkAt' | 'lastError' | 'lastPosts' | 'createdAt' | 'updatedAt'
> & {
  forum: string
  kind: string
  subreddits: string | null
  enabled: number
  last_modified: string | null
  last_polled_at: number | null
  last_ok_at: number | null
  last_error: string | null
  last_posts: number | null
  created_at: number
  updated_at: number | null
}

const fromRaw = (r: Raw): SourceRow => ({
  id: r.id,
  forum: r.forum === 'deals' ? 'deals' : 'accessories',
  kind: (SOURCE_KINDS as readonly string[]).includes(r.kind) ? (r.kind as SourceKind) : 'feed',
  name: r.name,
  url: r.url,
  subreddits: r.subreddits ? r.subreddits.split(',').filter(Boolean) : [],
  preset: r.preset,
  enabled: r.enabled === 1,
  secret: r.secret,
  etag: r.etag,
  lastModified: r.last_modified,
  lastPolledAt: r.last_polled_at,
  lastOkAt: r.last_ok_at,
  lastError: r.last_error,
  failures: r.failures,
  lastPosts: r.last_posts,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
})

/** The internal forum name of posts (posts.forum) for a source's forum. */
export const postForum = (forum: SourceForum): 'product' | 'gd' => (forum === 'deals' ? 'gd' : 'product')

export function listSources(sqlite: Database): SourceRow[] {
  return sqlite.query<Raw, []>('SELECT * FROM sources ORDER BY forum, id').all().map(fromRaw)
}

export function getSource(sqlite: Database, id: number): SourceRow | null {
  const r = sqlite.query<Raw, [number]>('SELECT * FROM sources WHERE id = ?').get(id)
  return r ? fromRaw(r) : null
}

/** Whether the table was filled on first start (before that, a bare test database, the configured forums are read). */
export function sourcesSeeded(deps: Pick<Deps, 'db'>): boolean {
  return storedSetting(deps, SEEDED) !== undefined
}

export function enabledSources(sqlite: Database, kind: SourceKind): SourceRow[] {
  return sqlite.query<Raw, [string]>('SELECT * FROM sources WHERE kind = ? AND enabled = 1 ORDER BY forum, id').all(kind).map(fromRaw)
}

/** What an admin or operator may set on a source (all checked by readSourceInput). */
export type SourceInput = {
  forum: SourceForum
  kind: SourceKind
  name: string
  url: string | null
  subreddits: string[]
  preset: string | null
  enabled: boolean
}

export type InputError = { field: string; message: string }
export type InputResult = { ok: true; value: SourceInput } | ({ ok: false } & InputError)

const SUBREDDIT = /^[A-Za-z0-9_]{2,21}$/
const MAX_NAME = 60
const MAX_URL = 2048
const MAX_SUBREDDITS = 10

const fail = (field: string, message: string): InputResult => ({ ok: false, field, message })

/** Subreddits as given: "a,b", "r/a + r/b", or a list. */
export function subredditList(v: unknown): string[] | null {
  const items = typeof v === 'string' ? v.split(/[,+\s]+/) : Array.isArray(v) ? v : null
  if (items === null || items.some((s) => typeof s !== 'string')) return null
  const names = (items as string[]).map((s) => s.trim().replace(/^\/?r\//i, '')).filter(Boolean)
  return [...new Map(names.map((n) => [n.toLowerCase(), n])).values()]
}

/** A source's name when none is given: the preset's label, r/a+b, or the feed's host. */
function defaultName(kind: SourceKind, subreddits: string[], url: string | null, preset: Preset | null): string {
  if (preset) return preset.label
  if (kind === 'reddit') return subreddits.map((s) => `r/${s}`).join('+')
  if (kind === 'feed' && url) return new URL(url).hostname
  return 'Pushed posts'
}

/**
 * Checks a new source (`before` null) or an edit (`before` the stored row; absent fields keep their value). A preset
 * fills kind, forum, subreddits and name; a feed preset's URL pattern needs the board's own URL. The URL's address
 * is checked again when fetched (SSRF: src/sources/feed-fetch.ts); here only its form.
 */
export function readSourceInput(raw: unknown, before: SourceRow | null = null): InputResult {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return fail('body', 'must be a JSON object')
  const o = raw as Record<string, unknown>
  let preset: Preset | null = null
  if (o.preset !== undefined && o.preset !== null && o.preset !== '') {
    if (typeof o.preset !== 'string') return fail('preset', 'must be a preset name')
    preset = presetByName(o.preset)
    if (!preset) return fail('preset', `"${o.preset.slice(0, 40)}" is not a preset (dibs sources presets lists them)`)
  }
  const kind = o.kind ?? preset?.kind ?? before?.kind
  if (!(SOURCE_KINDS as readonly unknown[]).includes(kind)) return fail('kind', 'must be reddit, feed or push')
  if (before && kind !== before.kind) return fail('kind', 'cannot change: remove the source and add a new one')
  const forum = o.forum ?? preset?.forum ?? before?.forum
  if (!(SOURCE_FORUMS as readonly unknown[]).includes(forum)) return fail('forum', 'must be accessories or deals')
  if (preset && preset.forum !== forum) return fail('preset', `feeds the ${preset.forum} forum, not ${String(forum)}`)
  if (preset && preset.kind !== kind) return fail('preset', `is a ${preset.kind} preset, not ${String(kind)}`)
  const k = kind as SourceKind

  let subreddits: string[] = []
  if (k === 'reddit') {
    const given = o.subreddits ?? (preset?.kind === 'reddit' ? [preset.subreddit] : before?.subreddits)
    const list = subredditList(given)
    if (list === null || list.length === 0) return fail('subreddits', 'name at least one subreddit (e.g. mechmarket)')
    if (list.length > MAX_SUBREDDITS) return fail('subreddits', `at most ${MAX_SUBREDDITS} subreddits per source`)
    const bad = list.find((s) => !SUBREDDIT.test(s))
    if (bad !== undefined) return fail('subreddits', `"${bad.slice(0, 40)}" is not a subreddit name (letters, digits, _; 2–21)`)
    subreddits = list
  }

  let url: string | null = null
  if (k === 'feed') {
    const given = o.url ?? before?.url
    if (typeof given !== 'string' || given.trim() === '')
      return fail('url', preset?.kind === 'feed' ? `give the board's feed URL (like ${preset.urlPattern})` : 'give the feed URL (RSS, Atom or JSON Feed)')
    const text = given.trim()
    if (text.length > MAX_URL) return fail('url', `must be at most ${MAX_URL} characters`)
    let parsed: URL
    try {
      parsed = new URL(text)
    } catch {
      return fail('url', 'must be a full http(s) URL')
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return fail('url', 'must be an http(s) URL')
    if (parsed.username || parsed.password) return fail('url', 'must not carry a user name or password')
    if (/[{}]/.test(text)) return fail('url', 'still has a {placeholder} of the preset: put in the board’s own address')
    url = parsed.href
  }

  const nameGiven = o.name
  if (nameGiven !== undefined && nameGiven !== null && typeof nameGiven !== 'string') return fail('name', 'must be text')
  const name = (typeof nameGiven === 'string' ? nameGiven.trim() : '') || (before?.name ?? defaultName(k, subreddits, url, preset))
  if (name.length > MAX_NAME) return fail('name', `must be at most ${MAX_NAME} characters`)
  if (/[\p{Cc}<>]/u.test(name)) return fail('name', 'must not contain control characters or < >')

  const enabled = o.enabled ?? before?.enabled ?? true
  if (typeof enabled !== 'boolean') return fail('enabled', 'must be true or false')
  return {
    ok: true,
    value: {
      forum: forum as SourceForum,
      kind: k,
      name,
      url,
      subreddits,
      preset: preset?.name ?? (o.preset === undefined ? (before?.preset ?? null) : null),
      enabled,
    },
  }
}

/** Stores a new source; a push source gets its secret (returned once by the caller). */
export function insertSource(sqlite: Database, input: SourceInput, at: number): SourceRow {
  const secret = input.kind === 'push' ? newPushSecret() : null
  const r = sqlite
    .query<Raw, (string | number | null)[]>(
      `INSERT INTO sources (forum, kind, name, url, subreddits, preset, enabled, secret, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING *`,
    )
    .get(input.forum, input.kind, input.name, input.url, input.subreddits.join(',') || null, input.preset, input.enabled ? 1 : 0, secret, at, at)!
  return fromRaw(r)
}

/** Applies an edit; a changed URL forgets the old feed's validators and health. */
export function updateSource(sqlite: Database, before: SourceRow, input: SourceInput, at: number): SourceRow {
  const moved = input.url !== before.url || input.subreddits.join(',') !== before.subreddits.join(',')
  const r = sqlite
    .query<Raw, (string | number | null)[]>(
      `UPDATE sources SET forum = ?, name = ?, url = ?, subreddits = ?, preset = ?, enabled = ?, updated_at = ?
       ${moved ? ', etag = NULL, last_modified = NULL, last_error = NULL, failures = 0' : ''} WHERE id = ? RETURNING *`,
    )
    .get(input.forum, input.name, input.url, input.subreddits.join(',') || null, input.preset, input.enabled ? 1 : 0, at, before.id)!
  return fromRaw(r)
}

/** Enables or disables a source (nothing else changes). */
export function setEnabled(sqlite: Database, id: number, enabled: boolean, at: number): void {
  sqlite.query('UPDATE sources SET enabled = ?, updated_at = ? WHERE id = ?').run(enabled ? 1 : 0, at, id)
}

export function deleteSource(sqlite: Database, id: number): boolean {
  return sqlite.query('DELETE FROM sources WHERE id = ?').run(id).changes > 0
}

/** A new secret for a push source (the old one stops working at once). */
export function rotateSecret(sqlite: Database, id: number, at: number): string {
  const secret = newPushSecret()
  sqlite.query('UPDATE sources SET secret = ?, updated_at = ? WHERE id = ?').run(secret, at, id)
  return secret
}

export type PollRecord = { at: number; ok: true; posts: number; etag?: string | null; lastModified?: string | null } | { at: number; ok: false; error: string }

/** A fetch (or a push) of the source and how it went: its health. */
export function recordPoll(sqlite: Database, id: number, r: PollRecord): void {
  if (r.ok)
    sqlite
      .query(
        `UPDATE sources SET last_polled_at = ?, last_ok_at = ?, last_error = NULL, failures = 0, last_posts = ?,
         etag = coalesce(?, etag), last_modified = coalesce(?, last_modified) WHERE id = ?`,
      )
      .run(r.at, r.at, r.posts, r.etag ?? null, r.lastModified ?? null, id)
  else sqlite.query('UPDATE sources SET last_polled_at = ?, last_error = ?, failures = failures + 1 WHERE id = ?').run(r.at, r.error.slice(0, 500), id)
}

/**
 * A Reddit poll reads every enabled reddit source in one request: each gets its health from it, with the posts of
 * its own subreddits that were new.
 */
export function recordRedditPolls(
  sqlite: Database,
  at: number,
  poll: { ok: true; stored: { sourceId: number | null }[]; missing: string[] } | { ok: false; error: string },
): void {
  for (const s of enabledSources(sqlite, 'reddit')) {
    if (!poll.ok) recordPoll(sqlite, s.id, { at, ok: false, error: poll.error })
    else if (s.subreddits.every((sub) => poll.missing.some((m) => m.toLowerCase() === sub.toLowerCase())))
      recordPoll(sqlite, s.id, {
        at,
        ok: false,
        error: `${s.subreddits.map((x) => `r/${x}`).join(', ')} answered missing (banned, private or no such subreddit): left out of the polls`,
      })
    else recordPoll(sqlite, s.id, { at, ok: true, posts: poll.stored.filter((p) => p.sourceId === s.id).length })
  }
}

/**
 * Which reddit source each post of a Reddit poll belongs to (the enabled reddit sources; the first naming its
 * subreddit wins): its forum, source id and name. A subreddit no source names is left to the configured forum
 * names (src/forums/classify.ts).
 */
export function routeRedditPosts<P extends { subreddit: string }>(
  sqlite: Database,
  posts: P[],
): (P & { forum?: 'product' | 'gd'; sourceId?: number; sourceName?: string })[] {
  const map = new Map<string, { forum: 'product' | 'gd'; sourceId: number; sourceName: string }>()
  for (const s of enabledSources(sqlite, 'reddit'))
    for (const sub of s.subreddits)
      if (!map.has(sub.toLowerCase())) map.set(sub.toLowerCase(), { forum: postForum(s.forum), sourceId: s.id, sourceName: s.name })
  return posts.map((p) => ({ ...p, ...map.get(p.subreddit.replace(/^\/?r\//i, '').toLowerCase()) }))
}

/** The source's name by id, for posts (match cards, the live feed). */
export function sourceNames(sqlite: Database): Map<number, string> {
  return new Map(
    sqlite
      .query<{ id: number; name: string }, []>('SELECT id, name FROM sources')
      .all()
      .map((r) => [r.id, r.name]),
  )
}

/**
 * First start: the sources of the environment's forums, once (a later start keeps what admins made of them, even
 * none). FORUM_PRESET's pair when set (a feed preset has no address yet: it is added disabled, for the admin to
 * complete), else ACCESSORIES_SUBREDDIT and DEALS_SUBREDDIT over Reddit. Returns the rows made.
 */
export function seedSources(deps: Pick<Deps, 'sqlite' | 'db' | 'config' | 'now'>): SourceRow[] {
  if (sourcesSeeded(deps)) return []
  const at = deps.now()
  const made: SourceRow[] = []
  deps.sqlite.transaction(() => {
    if (deps.sqlite.query('SELECT 1 FROM sources LIMIT 1').get() === null) {
      for (const input of seedInputs(deps.config)) made.push(insertSource(deps.sqlite, input, at.getTime()))
    }
    storeSetting(deps, SEEDED, { active: true }, 'The sources table was filled from the environment on first start', at)
  })()
  return made
}

function seedInputs(config: Pick<Deps['config'], 'forums' | 'forumPreset'>): SourceInput[] {
  const base = { url: null, enabled: true }
  const pair = config.forumPreset
  if (pair) {
    return [pair.accessories, pair.deals].map((p) => ({
      ...base,
      forum: p.forum,
      kind: p.kind,
      name: p.label,
      subreddits: p.kind === 'reddit' ? [p.subreddit] : [],
      preset: p.name,
      enabled: p.kind === 'reddit',
    }))
  }
  return [
    { ...base, forum: 'accessories', kind: 'reddit', name: `r/${config.forums.accessories}`, subreddits: [config.forums.accessories], preset: null },
    { ...base, forum: 'deals', kind: 'reddit', name: `r/${config.forums.deals}`, subreddits: [config.forums.deals], preset: null },
  ]
}

// — Reads for src/matches/ (issue 29 §1: the sources' SQL stays here) —

/** The kind of each source of `ids` still stored, by id (a match card's claim link and source badge). */
export function sourceKindsOf(sqlite: Database, ids: readonly number[]): Map<number, string> {
  const out = new Map<number, string>()
  const unique = [...new Set(ids)]
  for (const chunk of chunksOf(unique))
    for (const r of sqlite
      .query<{ id: number; kind: string }, number[]>(`SELECT id, kind FROM sources WHERE id IN (${placeholders(chunk.length)})`)
      .all(...chunk))
      out.set(r.id, r.kind)
  return out
}
