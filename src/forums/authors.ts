// The reddit_authors cache: what /user/<name>/about said of a post's author (account age, karma), one look-up per
// author, refreshed after AUTHOR_TTL_MS. The look-ups go on the re-check's side share of the budget (the job is
// src/scanner/authors.ts; the request RedditClient.fetchAbout, OAuth only). Owner of the table.
import { and, eq, inArray, sql } from 'drizzle-orm'
import type { OwnerDb } from '../db/async-db'
import { asAsync } from '../db/async-sqlite'
import type { Deps } from '../deps'
import { rawRows } from '../db/raw'
import { posts, redditAuthors } from '../db/schema'
import type { Post } from '../db/schema'
import { postsWithMatches } from '../matches/store'
import { rowToPost, type PostRow } from './store'
import { chunksOf } from '../lib/id-lists'

/** A looked-up author is asked again after this long (karma moves; the age does not). */
export const AUTHOR_TTL_MS = 7 * 86_400_000
/** Authors of posts stored this recently are looked up (older posts have alerted already). */
export const AUTHOR_LOOKUP_WINDOW_MS = 3_600_000

export type AuthorAbout = { accountCreatedAt: number | null; karma: number | null }
/** What the about answer said: the account, or that there is none to read (deleted, suspended, not found). */
export type AboutResult = ({ status: 'found' } & AuthorAbout) | { status: 'missing' }

/** Reads Reddit's /user/<name>/about JSON ({kind: 't2', data: {created_utc, link_karma, comment_karma, is_suspended}}). */
export function parseAbout(text: string): AboutResult {
  const json = JSON.parse(text) as { kind?: string; data?: Record<string, unknown> }
  const d = json?.data
  if (json?.kind !== 't2' || !d || typeof d !== 'object') throw new Error('not an account (kind t2)')
  if (d.is_suspended === true) return { status: 'missing' }
  const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : null)
  const created = num(d.created_utc)
  const link = num(d.link_karma)
  const comment = num(d.comment_karma)
  const total = num(d.total_karma)
  return {
    status: 'found',
    accountCreatedAt: created === null ? null : Math.round(created * 1000),
    karma: total ?? (link === null && comment === null ? null : (link ?? 0) + (comment ?? 0)),
  }
}

export async function recordAbout(deps: OwnerDb, name: string, about: AboutResult, at: number): Promise<void> {
  const found = about.status === 'found' ? about : null
  const row = { status: about.status, accountCreatedAt: found?.accountCreatedAt ?? null, karma: found?.karma ?? null, fetchedAt: new Date(at) }
  await asAsync(deps.db)
    .insert(redditAuthors)
    .values({ name: name.toLowerCase(), ...row })
    .onConflictDoUpdate({ target: redditAuthors.name, set: row })
}

/** A found author's account, or null (not looked up, or no account to read). */
export async function authorAbout(deps: OwnerDb, name: string | null | undefined): Promise<AuthorAbout | null> {
  if (!name) return null
  return (await authorsAbout(deps, [name])).get(name.toLowerCase()) ?? null
}

/**
 * The found accounts of `names`, by lowercased name (one IN-list query per 500 names): the match pipeline reads
 * a batch's authors at once (src/matches/runner.ts) and gives each post's to the Matcher's `prepare`.
 */
export async function authorsAbout(deps: OwnerDb, names: readonly (string | null | undefined)[]): Promise<Map<string, AuthorAbout>> {
  const db = asAsync(deps.db)
  const found = new Map<string, AuthorAbout>()
  const lowered = [...new Set(names.flatMap((n) => (n ? [n.toLowerCase()] : [])))]
  for (const chunk of chunksOf(lowered))
    for (const r of await db
      .select({ name: redditAuthors.name, accountCreatedAt: redditAuthors.accountCreatedAt, karma: redditAuthors.karma })
      .from(redditAuthors)
      .where(and(inArray(redditAuthors.name, chunk), eq(redditAuthors.status, 'found'))))
      found.set(r.name, { accountCreatedAt: r.accountCreatedAt, karma: r.karma })
  return found
}

/**
 * The next authors to look up: of Reddit posts stored in the last hour, never looked up or looked up longer than
 * AUTHOR_TTL_MS ago; authors of matched posts first, then the newest posts. Which posts are matched is the matches
 * folder's (src/matches/store.ts postsWithMatches, a pure leaf): read for the window's posts, then ordered here.
 */
export async function authorsToLookUp(deps: OwnerDb & Pick<Deps, 'sqlite'>, now: number, limit = 1): Promise<string[]> {
  // the window's posts newest first, grouped by author here: an author comes in the order of their newest post
  const rows = await rawRows<{ name: string; id: number }>(
    asAsync(deps.db),
    sql`SELECT lower(p.author) AS name, p.id AS id FROM ${posts} p LEFT JOIN ${redditAuthors} ra ON ra.name = lower(p.author)
       WHERE p.ingested_at >= ${now - AUTHOR_LOOKUP_WINDOW_MS} AND p.author != '' AND lower(p.author) != '[deleted]' AND p.url LIKE 'https://%reddit.com/%'
         AND (ra.name IS NULL OR ra.fetched_at < ${now - AUTHOR_TTL_MS})
       ORDER BY p.ingested_at DESC, p.id`,
  )
  const byName = new Map<string, number[]>()
  for (const r of rows) byName.set(r.name, [...(byName.get(r.name) ?? []), r.id])
  const authors = [...byName].map(([name, ids]) => ({ name, ids }))
  const matched = await postsWithMatches(
    deps,
    authors.flatMap((a) => a.ids),
  )
  // a stable sort: matched authors first, the newest first within each
  const first = (a: { ids: number[] }) => (a.ids.some((id) => matched.has(id)) ? 0 : 1)
  return authors
    .sort((a, b) => first(a) - first(b))
    .slice(0, limit)
    .map((a) => a.name)
}

/** The looked-up accounts of `authors` that were found, by author as given (matched case-insensitively, as SQLite's lower()). */
export async function foundAuthors(deps: OwnerDb, authors: readonly string[]): Promise<Map<string, AuthorAbout>> {
  const found = await authorsAbout(deps, authors)
  const out = new Map<string, AuthorAbout>()
  for (const a of new Set(authors)) {
    const about = found.get(a.toLowerCase())
    if (about) out.set(a, about)
  }
  return out
}

/** The author's classified posts of the look-up window, oldest first: matched again once the account is known. */
export async function recentPostsBy(deps: OwnerDb, name: string, now: number): Promise<Post[]> {
  const rows = await rawRows<PostRow>(
    asAsync(deps.db),
    sql`SELECT * FROM ${posts} WHERE lower(${posts.author}) = ${name.toLowerCase()} AND ${posts.ingestedAt} >= ${now - AUTHOR_LOOKUP_WINDOW_MS} AND ${posts.postType} IS NOT NULL ORDER BY ${posts.createdAt}, ${posts.id}`,
  )
  return rows.map(rowToPost)
}
