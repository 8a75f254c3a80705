// The sources table (issue 25): where each of the spec's two forums gets its posts. One owner: every read and write
// of `sources` is here. A source is a subreddit list read over Reddit (kind reddit: all enabled reddit sources share
// one multireddit request), a feed URL (kind feed, src/sources/poller.ts), or posts pushed to POST /api/ingest/<id>
// (kind push, src/sources/ingest-route.ts). `readSourceInput` checks what an admin or operator gives (pure);
// `seedSources` fills the table once, on first start, from the environment (FORUM_PRESET, else
// ACCESSORIES_SUBREDDIT / DEALS_SUBREDDIT).
import { and, asc, eq, inArray, sql } from 'drizzle-orm'
import { asAsync } from '../db/async-sqlite'
import type { OwnerDb } from '../db/async-db'
import { sources, type Source } from '../db/schema'
import type { Deps } from '../deps'
import { storedSetting, storedSettingAtStartSqlite, storeSettingAtStartSqlite } from '../settings/service'
import { presetByName, type Preset } from './presets'
import { newPushSecret } from './push'
import { chunksOf } from '../lib/id-lists'

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

const ms = (d: Date | null) => (d === null ? null : d.getTime())

const fromRow = (r: Source): SourceRow => ({
  id: r.id,
  forum: r.forum === 'deals' ? 'deals' : 'accessories',
  kind: (SOURCE_KINDS as readonly string[]).includes(r.kind) ? (r.kind as SourceKind) : 'feed',
  name: r.name,
  url: r.url,
  subreddits: r.subreddits ? r.subreddits.split(',').filter(Boolean) : [],
  preset: r.preset,
  enabled: r.enabled,
  secret: r.secret,
  etag: r.etag,
  lastModified: r.lastModified,
  lastPolledAt: ms(r.lastPolledAt),
  lastOkAt: ms(r.lastOkAt),
  lastError: r.lastError,
  failures: r.failures,
  lastPosts: r.lastPosts,
  createdAt: r.createdAt.getTime(),
  updatedAt: ms(r.updatedAt),
})

/** The internal forum name of posts (posts.forum) for a source's forum. */
export const postForum = (forum: SourceForum): 'product' | 'gd' => (forum === 'deals' ? 'gd' : 'product')

export async function listSources(deps: OwnerDb): Promise<SourceRow[]> {
  const db = asAsync(deps.db)
  return (await db.select().from(sources).orderBy(asc(sources.forum), asc(sources.id))).map(fromRow)
}

export async function getSource(deps: OwnerDb, id: number): Promise<SourceRow | null> {
  const db = asAsync(deps.db)
  const r = (await db.select().from(sources).where(eq(sources.id, id)).limit(1))[0]
  return r ? fromRow(r) : null
}

/** Whether the table was filled on first start (before that, a bare test database, the configured forums are read). */
export async function sourcesSeeded(deps: OwnerDb): Promise<boolean> {
  return (await storedSetting(deps, SEEDED)) !== undefined
}

/** sourcesSeeded at the start of a process (its wiring is synchronous: src/services.ts), SQLite only. */
export function sourcesSeededAtStartSqlite(deps: Pick<Deps, 'db'>): boolean {
  return storedSettingAtStartSqlite(deps, SEEDED) !== undefined
}

export async function enabledSources(deps: OwnerDb, kind: SourceKind): Promise<SourceRow[]> {
  const db = asAsync(deps.db)
  const rows = await db
    .select()
    .from(sources)
    .where(and(eq(sources.kind, kind), eq(sources.enabled, true)))
    .orderBy(asc(sources.forum), asc(sources.id))
  return rows.map(fromRow)
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
export async function insertSource(deps: OwnerDb, input: SourceInput, at: number): Promise<SourceRow> {
  const db = asAsync(deps.db)
  const [r] = await db.insert(sources).values(newSource(input, at)).returning()
  return fromRow(r!)
}

const newSource = (input: SourceInput, at: number) => ({
  forum: input.forum,
  kind: input.kind,
  name: input.name,
  url: input.url,
  subreddits: input.subreddits.join(',') || null,
  preset: input.preset,
  enabled: input.enabled,
  secret: input.kind === 'push' ? newPushSecret() : null,
  createdAt: new Date(at),
  updatedAt: new Date(at),
})

/**
 * The enabled sources of a kind, read synchronously: only for the start of a process, whose wiring is synchronous
 * (src/services.ts createServices, the scan source's first subreddits). Left on the synchronous handle in phase 1.
 */
export function enabledSourcesAtStart(deps: Pick<Deps, 'db'>, kind: SourceKind): SourceRow[] {
  return deps.db
    .select()
    .from(sources)
    .where(and(eq(sources.kind, kind), eq(sources.enabled, true)))
    .orderBy(asc(sources.forum), asc(sources.id))
    .all()
    .map(fromRow)
}

/** Applies an edit; a changed URL forgets the old feed's validators and health. */
export async function updateSource(deps: OwnerDb, before: SourceRow, input: SourceInput, at: number): Promise<SourceRow> {
  const db = asAsync(deps.db)
  const moved = input.url !== before.url || input.subreddits.join(',') !== before.subreddits.join(',')
  const [r] = await db
    .update(sources)
    .set({
      forum: input.forum,
      name: input.name,
      url: input.url,
      subreddits: input.subreddits.join(',') || null,
      preset: input.preset,
      enabled: input.enabled,
      updatedAt: new Date(at),
      ...(moved ? { etag: null, lastModified: null, lastError: null, failures: 0 } : {}),
    })
    .where(eq(sources.id, before.id))
    .returning()
  return fromRow(r!)
}

/** Enables or disables a source (nothing else changes). */
export async function setEnabled(deps: OwnerDb, id: number, enabled: boolean, at: number): Promise<void> {
  await asAsync(deps.db)
    .update(sources)
    .set({ enabled, updatedAt: new Date(at) })
    .where(eq(sources.id, id))
}

export async function deleteSource(deps: OwnerDb, id: number): Promise<boolean> {
  return (await asAsync(deps.db).delete(sources).where(eq(sources.id, id)).returning({ id: sources.id })).length > 0
}

/** A new secret for a push source (the old one stops working at once). */
export async function rotateSecret(deps: OwnerDb, id: number, at: number): Promise<string> {
  const secret = newPushSecret()
  await asAsync(deps.db)
    .update(sources)
    .set({ secret, updatedAt: new Date(at) })
    .where(eq(sources.id, id))
  return secret
}

export type PollRecord = { at: number; ok: true; posts: number; etag?: string | null; lastModified?: string | null } | { at: number; ok: false; error: string }

/** A fetch (or a push) of the source and how it went: its health. */
export async function recordPoll(deps: OwnerDb, id: number, r: PollRecord): Promise<void> {
  const db = asAsync(deps.db)
  if (r.ok)
    await db
      .update(sources)
      .set({
        lastPolledAt: new Date(r.at),
        lastOkAt: new Date(r.at),
        lastError: null,
        failures: 0,
        lastPosts: r.posts,
        etag: sql`coalesce(${r.etag ?? null}, ${sources.etag})`,
        lastModified: sql`coalesce(${r.lastModified ?? null}, ${sources.lastModified})`,
      })
      .where(eq(sources.id, id))
  else
    await db
      .update(sources)
      .set({ lastPolledAt: new Date(r.at), lastError: r.error.slice(0, 500), failures: sql`${sources.failures} + 1` })
      .where(eq(sources.id, id))
}

/**
 * A Reddit poll reads every enabled reddit source in one request: each gets its health from it, with the posts of
 * its own subreddits that were new.
 */
export async function recordRedditPolls(
  deps: OwnerDb,
  at: number,
  poll: { ok: true; stored: { sourceId: number | null }[]; missing: string[] } | { ok: false; error: string },
): Promise<void> {
  for (const s of await enabledSources(deps, 'reddit')) {
    if (!poll.ok) await recordPoll(deps, s.id, { at, ok: false, error: poll.error })
    else if (s.subreddits.every((sub) => poll.missing.some((m) => m.toLowerCase() === sub.toLowerCase())))
      await recordPoll(deps, s.id, {
        at,
        ok: false,
        error: `${s.subreddits.map((x) => `r/${x}`).join(', ')} answered missing (banned, private or no such subreddit): left out of the polls`,
      })
    else await recordPoll(deps, s.id, { at, ok: true, posts: poll.stored.filter((p) => p.sourceId === s.id).length })
  }
}

/**
 * Which reddit source each post of a Reddit poll belongs to (the enabled reddit sources; the first naming its
 * subreddit wins): its forum, source id and name. A subreddit no source names is left to the configured forum
 * names (src/forums/classify.ts).
 */
export async function routeRedditPosts<P extends { subreddit: string }>(
  deps: OwnerDb,
  posts: P[],
): Promise<(P & { forum?: 'product' | 'gd'; sourceId?: number; sourceName?: string })[]> {
  const map = new Map<string, { forum: 'product' | 'gd'; sourceId: number; sourceName: string }>()
  for (const s of await enabledSources(deps, 'reddit'))
    for (const sub of s.subreddits)
      if (!map.has(sub.toLowerCase())) map.set(sub.toLowerCase(), { forum: postForum(s.forum), sourceId: s.id, sourceName: s.name })
  return posts.map((p) => ({ ...p, ...map.get(p.subreddit.replace(/^\/?r\//i, '').toLowerCase()) }))
}

/** The source's name by id, for posts (match cards, the live feed). */
export async function sourceNames(deps: OwnerDb): Promise<Map<number, string>> {
  const rows = await asAsync(deps.db).select({ id: sources.id, name: sources.name }).from(sources)
  return new Map(rows.map((r) => [r.id, r.name]))
}

/**
 * First start: the sources of the environment's forums, once (a later start keeps what admins made of them, even
 * none). FORUM_PRESET's pair when set (a feed preset has no address yet: it is added disabled, for the admin to
 * complete), else ACCESSORIES_SUBREDDIT and DEALS_SUBREDDIT over Reddit. Returns the rows made.
 */
export function seedSources(deps: Pick<Deps, 'db' | 'config' | 'now'>): SourceRow[] {
  // Left synchronous in phase 1: it runs in the process's synchronous wiring (src/services.ts createServices).
  if (sourcesSeededAtStartSqlite(deps)) return []
  const at = deps.now()
  const made: SourceRow[] = []
  deps.db.transaction((tx) => {
    if (tx.select({ id: sources.id }).from(sources).limit(1).all().length === 0) {
      for (const input of seedInputs(deps.config)) made.push(fromRow(tx.insert(sources).values(newSource(input, at.getTime())).returning().get()))
    }
    storeSettingAtStartSqlite(deps, SEEDED, { active: true }, 'The sources table was filled from the environment on first start', at)
  })
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
export async function sourceKindsOf(deps: OwnerDb, ids: readonly number[]): Promise<Map<number, string>> {
  const db = asAsync(deps.db)
  const out = new Map<number, string>()
  const unique = [...new Set(ids)]
  for (const chunk of chunksOf(unique))
    for (const r of await db.select({ id: sources.id, kind: sources.kind }).from(sources).where(inArray(sources.id, chunk))) out.set(r.id, r.kind)
  return out
}
