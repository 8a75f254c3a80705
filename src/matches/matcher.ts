// The process's one TermIndex, kept in step with search_terms (paused terms left out). Built once by the wiring
// (src/services.ts) when the process starts: recent posts are observed first so terms are filed
// under tokens that are actually rare, then every saved term is added. After that, the terms
// service calls add/remove on each change — the index is never rebuilt. A CLI process builds its
// own from the same file; changes made by another process are picked up by sync().
import type { SearchTerm } from '../db/schema'
import type { Deps } from '../deps'
import { LIVE_WINDOW_MS, recentPosts } from '../forums/store'
import { log } from '../lib/log'
import type { Category } from '../access/categories'
import { preparePost, type PreparedPost } from '../matching/compile'
import { TermIndex, type TermRef } from '../matching/term-index'

export type { TermRef }

/** How many recent posts feed token rarity at load. */
const OBSERVE_POSTS = 5000

export class MatchingService {
  readonly index = new TermIndex()
  /** termId → created time (ms): posts older than the term never alert. */
  private readonly createdAt = new Map<number, number>()
  /** stored terms that do not parse (saved by an older version): counted, never matched */
  private readonly unparsed = new Set<number>()
  private maxId = 0
  private dataVersion: number

  constructor(private readonly deps: Pick<Deps, 'sqlite' | 'now'>) {
    this.dataVersion = this.readDataVersion()
    const t0 = performance.now()
    const since = new Date(deps.now().getTime() - LIVE_WINDOW_MS)
    for (const p of recentPosts(deps.sqlite, since).slice(-OBSERVE_POSTS)) this.index.observe(preparePost(p))
    const rows = deps.sqlite
      .query<{ id: number; user_id: number; category: string; term: string; created_at: number }, []>(
        'SELECT id, user_id, category, term, created_at FROM search_terms WHERE paused_at IS NULL',
      )
      .all()
    for (const r of rows) this.addRow(r)
    log.debug('term index loaded', { terms: this.index.size, unparsed: this.unparsed.size, ms: (performance.now() - t0).toFixed(1) })
    if (this.unparsed.size) log.warn('some saved terms could not be parsed and are ignored', { count: this.unparsed.size })
  }

  private addRow(r: { id: number; user_id: number; category: string; term: string; created_at: number }): void {
    this.maxId = Math.max(this.maxId, r.id)
    const ok = this.index.add({ termId: r.id, userId: r.user_id, category: r.category as Category, text: r.term }).ok
    if (ok) this.createdAt.set(r.id, r.created_at)
    else this.unparsed.add(r.id)
  }

  private readDataVersion(): number {
    return (this.deps.sqlite.query('PRAGMA data_version').get() as { data_version: number }).data_version
  }

  /**
   * Picks up terms another process changed (PRAGMA data_version moves only on other connections'
   * commits, so this costs one pragma per batch when nothing happened): new ids are added, ids
   * gone from the table are removed.
   */
  sync(): void {
    const v = this.readDataVersion()
    if (v === this.dataVersion) return
    this.dataVersion = v
    const { n, max } = this.deps.sqlite.query('SELECT count(*) AS n, coalesce(max(id), 0) AS max FROM search_terms WHERE paused_at IS NULL').get() as {
      n: number
      max: number
    }
    if (max > this.maxId)
      for (const r of this.deps.sqlite
        .query<{ id: number; user_id: number; category: string; term: string; created_at: number }, [number]>(
          'SELECT id, user_id, category, term, created_at FROM search_terms WHERE id > ? AND paused_at IS NULL',
        )
        .all(this.maxId))
        this.addRow(r)
    if (n !== this.createdAt.size + this.unparsed.size)
      this.forgetMissing(
        this.deps.sqlite
          .query<{ id: number }, []>('SELECT id FROM search_terms WHERE paused_at IS NULL')
          .all()
          .map((r) => r.id),
      )
  }

  /** Drops indexed terms whose ids are not among `existing` (deleted behind the service's back). */
  forgetMissing(existing: Iterable<number>, among: Iterable<number> = [...this.createdAt.keys(), ...this.unparsed]): number[] {
    const keep = new Set(existing)
    const gone: number[] = []
    for (const id of among) if (!keep.has(id)) gone.push(id)
    for (const id of gone) this.remove(id)
    return gone
  }

  add(term: Pick<SearchTerm, 'id' | 'userId' | 'category' | 'term' | 'createdAt'>): void {
    this.addRow({ id: term.id, user_id: term.userId, category: term.category, term: term.term, created_at: term.createdAt.getTime() })
  }

  remove(termId: number): void {
    this.index.remove(termId)
    this.createdAt.delete(termId)
    this.unparsed.delete(termId)
  }

  termCreatedAt(termId: number): number {
    return this.createdAt.get(termId) ?? 0
  }

  match(post: PreparedPost, category: Category): TermRef[] {
    return this.index.match(post, category)
  }

  get size(): number {
    return this.index.size
  }
}

/** What the match pipeline needs beside Deps: the process's term index. */
export type WithMatcher = { matcher: MatchingService }
