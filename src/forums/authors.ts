// The reddit_authors cache: what /user/<name>/about said of a post's author (account age, karma), one look-up per
// author, refreshed after AUTHOR_TTL_MS. The look-ups go on the re-check's side share of the budget (the job is
// src/scanner/authors.ts; the request RedditClient.fetchAbout, OAuth only). Owner of the table.
import type { Database } from 'bun:sqlite'
import type { Post } from '../db/schema'
import type { OwnerDb } from '../db/async-db'
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

export function recordAbout(sqlite: Database, name: string, about: AboutResult, at: number): void {
  const found = about.status === 'found' ? about : null
  sqlite
    .query(
      `INSERT INTO reddit_authors (name, status, account_created_at, karma, fetched_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT(name) DO UPDATE SET status = excluded.status, account_created_at = excluded.account_created_at, karma = excluded.karma, fetched_at = excluded.fetched_at`,
    )
    .run(name.toLowerCase(), about.status, found?.accountCreatedAt ?? null, found?.karma ?? null, at)
}

/** A found author's account, or null (not looked up, or no account to read). */
export function authorAbout(sqlite: Database, name: string | null | undefined): AuthorAbout | null {
  if (!name) return null
  const row = sqlite
    .query<{ account_created_at: number | null; karma: number | null }, [string]>(
      "SELECT account_created_at, karma FROM reddit_authors WHERE name = ? AND status = 'found'",
    )
    .get(name.toLowerCase())
  return row ? { accountCreatedAt: row.account_created_at, karma: row.karma } : null
}

/**
 * The next authors to look up: of Reddit posts stored in the last hour, never looked up or looked up longer than
 * AUTHOR_TTL_MS ago; authors of matched posts first, then the newest posts. Which posts are matched is the matches
 * folder's (src/matches/store.ts postsWithMatches, a pure leaf): read for the window's posts, then ordered here.
 */
export async function authorsToLookUp(deps: OwnerDb & { sqlite: Database }, now: number, limit = 1): Promise<string[]> {
  const { sqlite } = deps
  const authors = sqlite
    .query<{ name: string; ids: string }, [number, number]>(
      `SELECT lower(p.author) AS name, json_group_array(p.id) AS ids FROM posts p LEFT JOIN reddit_authors ra ON ra.name = lower(p.author)
       WHERE p.ingested_at >= ? AND p.author != '' AND lower(p.author) != '[deleted]' AND p.url LIKE 'https://%reddit.com/%'
         AND (ra.name IS NULL OR ra.fetched_at < ?)
       GROUP BY lower(p.author)
       ORDER BY max(p.ingested_at) DESC`,
    )
    .all(now - AUTHOR_LOOKUP_WINDOW_MS, now - AUTHOR_TTL_MS)
    .map((r) => ({ name: r.name, ids: JSON.parse(r.ids) as number[] }))
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
export function foundAuthors(sqlite: Database, authors: readonly string[]): Map<string, AuthorAbout> {
  const out = new Map<string, AuthorAbout>()
  const unique = [...new Set(authors)]
  for (const chunk of chunksOf(unique))
    for (const r of sqlite
      .query<{ author: string; account_created_at: number | null; karma: number | null }, [string]>(
        "SELECT j.value AS author, ra.account_created_at, ra.karma FROM json_each(?) j JOIN reddit_authors ra ON ra.name = lower(j.value) AND ra.status = 'found'",
      )
      .all(JSON.stringify(chunk)))
      out.set(r.author, { accountCreatedAt: r.account_created_at, karma: r.karma })
  return out
}

/** The author's classified posts of the look-up window, oldest first: matched again once the account is known. */
export function recentPostsBy(sqlite: Database, name: string, now: number): Post[] {
  return sqlite
    .query<PostRow, [string, number]>('SELECT * FROM posts WHERE lower(author) = ? AND ingested_at >= ? AND post_type IS NOT NULL ORDER BY created_at, id')
    .all(name.toLowerCase(), now - AUTHOR_LOOKUP_WINDOW_MS)
    .map(rowToPost)
}
