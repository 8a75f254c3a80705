// The process's one TermIndex, kept in step with search_terms. Loaded on first use (the server
// touches it at startup): recent posts are observed first so terms are filed under tokens that
// are actually rare, then every saved term is added. After that, the terms service calls
// add/remove on each change — the index is never rebuilt.
//
// One index per open database (a WeakMap on the Db object), so tests with their own database
// each get their own index and a CLI process builds its own from the same file.
import type { SearchTerm } from '../db/schema'
import type { Deps } from '../deps'
import { LIVE_WINDOW_MS, recentPosts } from '../forums/store'
import { log } from '../lib/log'
import { preparePost, type PreparedPost } from './compile'
import { TermIndex, type Category, type TermRef } from './term-index'

/** How many recent posts feed token rarity at load. */
const OBSERVE_POSTS = 5000

export class MatchingService {
  readonly index = new TermIndex()
  /** termId → created time (ms): posts older than the term never alert. */
  private readonly createdAt = new Map<number, number>()

  constructor(deps: Pick<Deps, 'sqlite' | 'now'>) {
    const t0 = performance.now()
    const since = new Date(deps.now().getTime() - LIVE_WINDOW_MS)
    for (const p of recentPosts(deps.sqlite, since).slice(-OBSERVE_POSTS)) this.index.observe(preparePost(p))
    const rows = deps.sqlite
      .query<{ id: number; user_id: number; category: string; term: string; created_at: number }, []>(
        'SELECT id, user_id, category, term, created_at FROM search_terms',
      )
      .all()
    let skipped = 0
    for (const r of rows) {
      const ok = this.addRef({ termId: r.id, userId: r.user_id, category: r.category as Category, text: r.term }, r.created_at)
      if (!ok) skipped++
    }
    log.debug('term index loaded', { terms: this.index.size, skipped, ms: (performance.now() - t0).toFixed(1) })
    if (skipped) log.warn('some saved terms could not be parsed and are ignored', { skipped })
  }

  private addRef(ref: TermRef, createdAt: number): boolean {
    const r = this.index.add(ref)
    if (r.ok) this.createdAt.set(ref.termId, createdAt)
    return r.ok
  }

  add(term: Pick<SearchTerm, 'id' | 'userId' | 'category' | 'term' | 'createdAt'>): void {
    this.addRef({ termId: term.id, userId: term.userId, category: term.category as Category, text: term.term }, term.createdAt.getTime())
  }

  remove(termId: number): void {
    this.index.remove(termId)
    this.createdAt.delete(termId)
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

const services = new WeakMap<object, MatchingService>()

export function matcherFor(deps: Pick<Deps, 'db' | 'sqlite' | 'now'>): MatchingService {
  let s = services.get(deps.db)
  if (!s) services.set(deps.db, (s = new MatchingService(deps)))
  return s
}
