// The process's one TermIndex, kept in step with search_terms (paused terms left out). Built and loaded once by
// the wiring (src/services.ts awaits load() when the process starts): recent posts are observed first so terms are
// filed under tokens that are actually rare, then every saved term is added. After that, the terms
// service calls add/remove on each change — the index is never rebuilt. A CLI process builds its
// own from the same file; changes made by another process are picked up by sync().
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { SearchTerm } from '../db/schema'
import { engineOf } from '../db/async-db'
import type { Deps } from '../deps'
import { LIVE_WINDOW_MS, recentPostTexts } from '../forums/store'
import type { AuthorAbout } from '../forums/authors'
import { accountAgeDays } from '../forums/seller'
import { log } from '../lib/log'
import { CATEGORIES, type Category } from '../access/categories'
import { compileTerm, distinctTokens, preparePost, type CompiledTerm, type PreparedPost } from '../matching/compile'
import { BUILTIN, BUILTIN_DICTIONARY, compileDictionary, mergeDictionary, parseDictionaryJson, type CompiledDictionary } from '../matching/dictionary'
import type { Query } from '../matching/parse'
import type { PostInput } from '../matching/post-model'
import { TermIndex, type TermRef } from '../matching/term-index'
import { activeTermCount, activeTermIds, activeTermsAfter, activeTermsByText, type IndexedTermRow } from '../terms/store'

export type { TermRef }

/** How many recent posts feed token rarity at load. */
const OBSERVE_POSTS = 5000

/** The admin's additions to the built-in dictionary of aliases and categories (src/matching/dictionary.ts). */
export const DICTIONARY_FILE = 'dictionary.json'

/**
 * The built-in dictionary, extended by `DATA_DIR/dictionary.json` when that file exists. An invalid
 * file is reported in one log line and the built-in dictionary is used alone.
 */
export function loadDictionary(dataDir: string | undefined): CompiledDictionary {
  if (!dataDir) return BUILTIN
  const file = join(dataDir, DICTIONARY_FILE)
  if (!existsSync(file)) return BUILTIN
  const parsed = parseDictionaryJson(readFileSync(file, 'utf8'))
  if (!parsed.ok) {
    log.error('dictionary file ignored, using the built-in dictionary', { file, error: parsed.error })
    return BUILTIN
  }
  return compileDictionary(mergeDictionary(BUILTIN_DICTIONARY, parsed.dictionary))
}

/** A term as this service files it: with its created time, so a match needs no second lookup. */
export type StoredTerm = TermRef & { createdAt: number }

export class MatchingService {
  /** the dictionary of both sides: posts are prepared and terms compiled with it */
  readonly dictionary: CompiledDictionary
  readonly index: TermIndex<StoredTerm>
  /** stored terms that do not parse (saved by an older version): counted, never matched */
  private readonly unparsed = new Set<number>()
  private maxId = 0
  private dataVersion: number | null = null
  /** the filing of the saved terms, once started (load(), awaited at start; sync() starts it when nothing did) */
  private loading: Promise<this> | null = null

  /** Reads nothing: load() fills the index (src/services.ts createServices awaits it before the process serves). */
  constructor(private readonly deps: Pick<Deps, 'sqlite' | 'db' | 'now'> & { config?: Pick<Deps['config'], 'dataDir'> }) {
    this.dictionary = loadDictionary(deps.config?.dataDir)
    this.index = new TermIndex<StoredTerm>(this.dictionary)
  }

  /**
   * Fills the index, once (a no-op after): recent posts are observed first, so terms are filed under tokens that
   * are actually rare, then every saved term is added. Answers the service.
   */
  async load(): Promise<this> {
    return await (this.loading ??= this.fill())
  }

  private async fill(): Promise<this> {
    // read before the terms: a commit of another process after this point moves it, and sync() picks that up
    this.dataVersion = this.readDataVersion()
    const t0 = performance.now()
    // Only the columns used, a page at a time (no half-million-row array held while filing).
    // Rarity: the newest posts of the live window (the set, not the order, matters).
    const since = this.deps.now().getTime() - LIVE_WINDOW_MS
    for await (const p of recentPostTexts(this.deps, since, OBSERVE_POSTS)) {
      try {
        this.index.observe({ distinct: distinctTokens(p, this.dictionary) })
      } catch {
        // a post that cannot be read only leaves the rarity counts: the scan marks it unparsed
      }
    }
    let text = ''
    for await (const r of activeTermsByText(this.deps)) text = this.fileRow(r, text)
    log.debug('term index loaded', { terms: this.index.size, unparsed: this.unparsed.size, ms: (performance.now() - t0).toFixed(1) })
    if (this.unparsed.size) log.warn('some saved terms could not be parsed and are ignored', { count: this.unparsed.size })
    return this
  }

  // Sorted by text, so the many rows of one text come in a run: the index files them into the
  // same, cache-warm group, mostly without a lookup. A run shares one string instance, and the
  // categories are the literals, so each row's own strings die young instead of being kept.
  private fileRow(r: IndexedTermRow, text: string): string {
    const shared = r.term === text ? text : r.term
    this.addRow(r.id, r.user_id, CATEGORIES.find((c) => c === r.category) ?? r.category, shared, r.created_at)
    return shared
  }

  private addRow(id: number, userId: number, category: string, text: string, createdAt: number): void {
    if (id > this.maxId) this.maxId = id
    if (!this.index.add({ termId: id, userId, category: category as Category, text, createdAt }).ok) this.unparsed.add(id)
  }

  /** SQLite's PRAGMA data_version (moves on other connections' commits); null on PostgreSQL, which has none. */
  private readDataVersion(): number | null {
    const sqlite = this.deps.sqlite
    if (sqlite === null || engineOf(this.deps.db) !== 'sqlite') return null
    return (sqlite.query('PRAGMA data_version').get() as { data_version: number }).data_version
  }

  /**
   * Picks up terms another process changed (SQLite: PRAGMA data_version moves only on other connections'
   * commits, so this costs one pragma per batch when nothing happened; PostgreSQL has no such counter:
   * one count per batch): new ids are added, ids gone from the table are removed.
   */
  async sync(): Promise<void> {
    // a process that never loaded (a CLI command's lazily built index): the first sync files everything
    const first = this.loading === null
    await this.load()
    if (first) return
    const v = this.readDataVersion()
    if (v !== null && v === this.dataVersion) return
    this.dataVersion = v
    const { n, max } = await activeTermCount(this.deps)
    if (max > this.maxId) for (const r of await activeTermsAfter(this.deps, this.maxId)) this.addRow(r.id, r.user_id, r.category, r.term, r.created_at)
    if (n !== this.index.size + this.unparsed.size) this.forgetMissing(await activeTermIds(this.deps))
  }

  /** Drops indexed terms whose ids are not among `existing` (deleted behind the service's back). */
  forgetMissing(existing: Iterable<number>, among: Iterable<number> = [...this.index.ids(), ...this.unparsed]): number[] {
    const keep = new Set(existing)
    const gone: number[] = []
    for (const id of among) if (!keep.has(id)) gone.push(id)
    for (const id of gone) this.remove(id)
    return gone
  }

  add(term: Pick<SearchTerm, 'id' | 'userId' | 'category' | 'term' | 'createdAt'>): void {
    this.addRow(term.id, term.userId, term.category, term.term, term.createdAt.getTime())
  }

  remove(termId: number): void {
    this.index.remove(termId)
    this.unparsed.delete(termId)
  }

  termCreatedAt(termId: number): number {
    return this.index.get(termId)?.createdAt ?? 0
  }

  /**
   * A stored post read for matching (title, body, author, flair, the author's flair where stored), with this service's
   * dictionary; the author's account age (at the post's time) and karma from the look-up cache (src/forums/authors.ts),
   * which the caller reads first, for its whole batch at once (authorsAbout): null when the author was not looked up.
   */
  prepare(post: PostInput & { createdAt?: Date | number | string | null }, about: AuthorAbout | null = null): PreparedPost {
    const at = post.createdAt === undefined || post.createdAt === null ? null : new Date(post.createdAt).getTime()
    const input: PostInput = {
      title: post.title,
      content: post.content,
      author: post.author,
      flair: post.flair,
      authorFlair: post.authorFlair ?? null,
      authorAgeDays: about ? accountAgeDays(about.accountCreatedAt, at) : null,
      authorKarma: about?.karma ?? null,
    }
    return preparePost(input, this.dictionary)
  }

  /** A parsed term compiled with this service's dictionary (backfill checks terms one by one). */
  compile(query: Query): CompiledTerm {
    return compileTerm(query, this.dictionary)
  }

  match(post: PreparedPost, category: Category): StoredTerm[] {
    return this.index.match(post, category)
  }

  get size(): number {
    return this.index.size
  }
}

/** What the match pipeline needs beside Deps: the process's term index. */
export type WithMatcher = { matcher: MatchingService }
