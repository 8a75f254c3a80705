// In-memory index of saved terms, one shelf per category. See README.md "Index design".
// Layout: every distinct alternative (by signature) is a Group holding the terms that contain it.
// A group is filed under ONE key: its rarest required exact token (exact map), or — when it has
// only prefix words — the first ≤3 characters of its longest prefix (prefix map). A post costs one
// exact lookup per distinct token plus up to three prefix lookups per token; each candidate group is
// verified once, however many users saved the same words.
// Matching is memory-bound at 500k terms, so the hot path avoids pointer chasing: a group keeps its
// checks inline (price interval as numbers, the other required tokens as one array) and the refs of
// single-alternative terms as a plain array copied straight into the result.
// Add/remove are O(words of the term): swap-removal with stored positions, no rebuild.
// Loading 500k terms at startup must be cheap per term, in time and in objects for the garbage
// collector. Many users save the same text, so each shelf maps a text to its groups
// (`shelf.texts`, dropped with the text's last term): adding a known text is one Map lookup and a
// push, with no parsing; the same text as the previous add (a load sorted by text) skips even the
// lookup. A single-alternative term (nearly all) is only its ref in `group.refs`, found by id
// through two arrays indexed by term id (database ids are small dense integers; the arrays are kept
// dense, whatever order ids come in) rather than a Map entry and an object per term. Every object
// kept costs the garbage collector again at each full collection, so a group keeps only what
// matching reads (not the compiled alternative) and allocates `multis` only when needed.

import {
  checkAlternative,
  compileTerm,
  segmentPrices,
  flairHas,
  sequenceOccurs,
  skippedSide,
  type CompiledAlternative,
  type CompiledSequence,
  type PreparedPost,
} from './compile'
import { BUILTIN, type CompiledDictionary } from './dictionary'
import { MARK_EXTRA } from './post-model'
import { parseTerm } from './parse'
import type { Category } from '../access/categories'

/** `termId`: a non-negative integer (the database id). */
export type TermRef = { termId: number; userId: number; category: Category; text: string }

const PREFIX_KEY = 3
const OK = { ok: true } as const

/** Shared by the slots of a term with several alternatives, to report it once per post. */
type Owner = { ref: TermRef; stamp: number }
/** One alternative of a term with several, in `group.multis`. */
type Slot = { group: Group; pos: number; owner: Owner }
/** One text of a shelf: the groups of its alternatives, in order, for the `uses` live terms with it. */
type Text = { groups: Group[]; uses: number }

type Group = {
  /** its key in `shelf.groups` */
  signature: string
  stamp: number
  /** the reference checks (compile.ts) decide unless the group is simple and the post plain */
  alt: CompiledAlternative
  simple: boolean
  scopeFree: boolean
  /** extras change its verdict — an item-scope exclusion (`-word`, blind to extras: "w/ mount") or words that do not
   *  count at extras (a term naming an accessory) — so a post with extras goes through the reference */
  extrasMatter: boolean
  /** the words of a simple group (what the inline decision needs to be untouched by marks); null: a prefix word */
  touch: string[] | null
  // Inline checks, cheapest first; on any post they are necessary conditions (whole-post forms of
  // the reference's checks). The key token itself is not re-checked.
  priced: boolean
  lo: number
  loIncl: boolean
  hi: number
  hiIncl: boolean
  req: string[] | null
  seqs: CompiledSequence[] | null
  exc: CompiledSequence[] | null
  /** the terms with this one alternative */
  refs: TermRef[]
  /** slots of terms with several alternatives; null until the first */
  multis: Slot[] | null
  bucket: Group[]
  bucketPos: number
  kind: KeyKind
  key: string
  /** a group whose only words name a category is filed twice: under the category token and under a word */
  bucket2: Group[] | null
  bucketPos2: number
  key2: string
}

/** exact: a post token (or a field key, see AUTHOR/FLAIR); prefix: a word's first ≤3 characters; always: checked for every post */
type KeyKind = 'exact' | 'prefix' | 'always'
/** Field keys in the exact map: no post token starts with a control character. */
const AUTHOR = '\u0000a:'
const FLAIR = '\u0000f:'
const LOC = '\u0000l:'

type Shelf = {
  exact: Map<string, Group[]>
  prefix: Map<string, Group[]>
  /** groups with no key a post could be looked up by (only a flair prefix) */
  always: Group[]
  /** how many groups are keyed by author / flair / place */
  authorKeys: number
  flairKeys: number
  locKeys: number
  groups: Map<string, Group>
  texts: Map<string, Text>
  /** how many prefix groups are keyed with 1, 2, 3 characters (index = length). */
  prefixLengths: number[]
}

function newShelf(): Shelf {
  return {
    exact: new Map(),
    prefix: new Map(),
    always: [],
    authorKeys: 0,
    flairKeys: 0,
    locKeys: 0,
    groups: new Map(),
    texts: new Map(),
    prefixLengths: [0, 0, 0, 0],
  }
}

/**
 * What a post offers every candidate: whether the inline checks can decide — `open`: no sides for this
 * category; `oneScope`: one item scope; `marked`: the tokens at a marked position other than an extra
 * (accessory-for, replica, sold), null when none: a group none of whose words is marked reads the post as
 * unmarked; `extras`: the post has extras, where groups whose verdict extras change go through the reference
 * — and the item total prices.
 */
type PostView = { post: PreparedPost; category: Category; open: boolean; oneScope: boolean; marked: Set<string> | null; extras: boolean; prices: number[] }

function viewOf(post: PreparedPost, category: Category): PostView {
  const open = skippedSide(post, category) === 0
  let marked: Set<string> | null = null
  let extras = false
  if (open) {
    const fits = post.fits
    for (let i = 0; i < fits.length; i++) {
      const f = fits[i]!
      if (f === 0) continue
      if ((f & MARK_EXTRA) !== 0) extras = true
      if ((f & ~MARK_EXTRA) !== 0) (marked ??= new Set()).add(post.tokens[i]!)
    }
  }
  return { post, category, open, oneScope: post.segments.length <= 2, marked, extras, prices: allItemPrices(post) }
}

/** No word of the group sits at a marked position of the post (a prefix word may: then it is touched). */
function untouched(g: Group, marked: Set<string>): boolean {
  if (g.touch === null) return false
  for (let i = 0; i < g.touch.length; i++) if (marked.has(g.touch[i]!)) return false
  return true
}

/** Item total prices of the whole post (any segment): the inline price check's list. */
function allItemPrices(post: PreparedPost): number[] {
  if (post.segments.length <= 2) return segmentPrices(post, 0, 'total')
  const out: number[] = []
  for (const g of post.segments) for (const p of g.prices) if (p.role === 'item' && p.unit === 'total') out.push(p.amount)
  return out
}

function verify(g: Group, view: PostView): boolean {
  const post = view.post
  if (g.priced) {
    const prices = view.prices
    let ok = false
    for (let i = 0; i < prices.length; i++) {
      const p = prices[i]!
      if ((g.loIncl ? p >= g.lo : p > g.lo) && (g.hiIncl ? p <= g.hi : p < g.hi)) {
        ok = true
        break
      }
    }
    if (!ok) return false
  }
  const req = g.req
  if (req !== null) for (let i = 0; i < req.length; i++) if (!post.tokenSet.has(req[i]!)) return false
  const seqs = g.seqs
  if (seqs !== null) for (let i = 0; i < seqs.length; i++) if (!sequenceOccurs(seqs[i]!, post)) return false
  const flat = view.open && (view.marked === null || untouched(g, view.marked))
  if (!(g.simple && flat && (view.oneScope || g.scopeFree)) || (view.extras && g.extrasMatter)) return checkAlternative(g.alt, post, view.category) === null
  // A plain post is one scope with no sides or accessory marks: exclusions are post-wide. A
  // scope-free group (one item word, no bounds, exclusions only post-wide) needs no scope at all.
  const exc = g.exc
  if (exc !== null)
    for (let i = 0; i < exc.length; i++) {
      const e = exc[i]!
      if (sequenceOccurs(e, post) || (e.scope === 'post' && post.flair.length > 0 && flairHas(e, post.flair))) return false
    }
  return true
}

export class TermIndex<R extends TermRef = TermRef> {
  private shelves: Record<Category, Shelf> = { wts: newShelf(), wtb: newShelf(), gd: newShelf() }
  /** term id → its group (one alternative) or its slots (several); holes for other ids. */
  private where: (Group | Slot[] | undefined)[] = []
  /** term id → its position in `group.refs` (one alternative only). */
  private pos: number[] = []
  private count = 0
  /** the text entry of the previous add, its shelf and key (fields, not an object: no allocation per add) */
  private lastText: Text | null = null
  private lastShelf: Shelf | null = null
  private lastKey = ''
  /** the last text compiled, and its alternatives: a load sorted by text meets a text's other categories next */
  private compiledKey = ''
  private compiledAlts: CompiledAlternative[] = []
  private stamp = 0
  /** document frequency of tokens over observed posts; unseen tokens count as rarest. */
  private df = new Map<string, number>()

  /** `dict`: the dictionary posts are prepared with, so terms get the same aliases and categories. */
  constructor(private readonly dict: CompiledDictionary = BUILTIN) {}

  get size(): number {
    return this.count
  }

  /** The stored ref of a term id. */
  get(termId: number): R | undefined {
    const entry = this.entry(termId)
    if (entry === undefined) return undefined
    return (Array.isArray(entry) ? entry[0]!.owner.ref : entry.refs[this.pos[termId]!]!) as R
  }

  /** Reading past the end of an array is slow in JSC (a prototype lookup): check the length first. */
  private entry(termId: number): Group | Slot[] | undefined {
    return termId >= 0 && termId < this.where.length ? this.where[termId] : undefined
  }

  /** Every stored term id, ascending. */
  *ids(): IterableIterator<number> {
    const where = this.where
    for (let id = 0; id < where.length; id++) if (where[id] !== undefined) yield id
  }

  /** Feeds token rarity. Only affects which key future terms are filed under, never results. */
  observe(post: Pick<PreparedPost, 'distinct'>): void {
    for (const t of post.distinct) this.df.set(t, (this.df.get(t) ?? 0) + 1)
  }

  /**
   * Files the term (parsing and compiling its text unless known); replaces an existing term with
   * the same id. The index keeps `ref` as given: do not change it afterwards (remove reads its
   * category and text).
   */
  add(ref: R): { ok: true } | { ok: false; error: string } {
    const shelf = this.shelves[ref.category]
    if (!shelf) return { ok: false, error: `Unknown category: ${String(ref.category)}` }
    if (!Number.isSafeInteger(ref.termId) || ref.termId < 0) return { ok: false, error: `Invalid term id: ${ref.termId}` }
    let text = this.lastShelf === shelf && this.lastKey === ref.text ? this.lastText! : shelf.texts.get(ref.text)
    let alts: CompiledAlternative[] | undefined
    if (text === undefined) {
      const compiled = ref.text === this.compiledKey ? this.compiledAlts : compile(ref.text, this.dict)
      if (!Array.isArray(compiled)) return compiled
      alts = this.compiledAlts = compiled
      this.compiledKey = ref.text
    }
    const id = ref.termId
    if (id < this.where.length && this.where[id] !== undefined) this.remove(id)
    // While a text has terms its groups are not empty, so they stay filed and `text.groups` valid.
    // The remove above may have dropped this very text (a term replaced by its own text): file again.
    if (text === undefined || text.uses === 0) {
      alts ??= compile(ref.text, this.dict) as CompiledAlternative[] // it compiled when first added
      const groups = alts.map((alt) => shelf.groups.get(alt.signature) ?? this.file(shelf, alt))
      shelf.texts.set(ref.text, (text = { groups, uses: 0 }))
    }
    text.uses++
    this.lastText = text
    this.lastShelf = shelf
    this.lastKey = ref.text
    // Writing past the end would let the engine switch a large array to a slow sparse form: fill
    // the gap first (an id just past the end is a plain append).
    while (this.where.length < id) {
      this.where.push(undefined)
      this.pos.push(0)
    }
    const groups = text.groups
    if (groups.length === 1) {
      const group = groups[0]!
      this.pos[id] = group.refs.length
      group.refs.push(ref)
      this.where[id] = group
    } else {
      const owner: Owner = { ref, stamp: 0 }
      this.where[id] = groups.map((group) => {
        const slot: Slot = { group, pos: group.multis?.length ?? 0, owner }
        ;(group.multis ??= []).push(slot)
        return slot
      })
    }
    this.count++
    return OK
  }

  remove(termId: number): void {
    const entry = this.entry(termId)
    if (entry === undefined) return
    this.where[termId] = undefined // a hole, not `delete`: the array stays a plain vector
    this.count--
    let ref: TermRef
    if (Array.isArray(entry)) {
      ref = entry[0]!.owner.ref
      for (const slot of entry) swapRemove(slot.group.multis!, slot.pos, (s, p) => (s.pos = p))
    } else {
      const pos = this.pos
      ref = entry.refs[pos[termId]!]!
      swapRemove(entry.refs, pos[termId]!, (r, p) => (pos[r.termId] = p))
    }
    const shelf = this.shelves[ref.category]
    const text = shelf.texts.get(ref.text)!
    if (--text.uses > 0) return
    shelf.texts.delete(ref.text)
    for (const g of text.groups) if (g.refs.length + (g.multis?.length ?? 0) === 0 && shelf.groups.get(g.signature) === g) this.unfile(shelf, g)
  }

  clear(): void {
    this.shelves = { wts: newShelf(), wtb: newShelf(), gd: newShelf() }
    this.where = []
    this.pos = []
    this.count = 0
    this.lastText = this.lastShelf = null
    this.lastKey = this.compiledKey = ''
    this.compiledAlts = []
  }

  /** Every term of this category that matches the post, once each. */
  match(post: PreparedPost, category: Category): R[] {
    const shelf = this.shelves[category]
    const out: R[] = []
    if (!shelf || this.count === 0) return out
    const stamp = ++this.stamp
    const view = viewOf(post, category)
    const distinct = post.distinct
    const { exact, prefix, prefixLengths } = shelf
    for (let i = 0; i < distinct.length; i++) {
      const bucket = exact.get(distinct[i]!)
      if (bucket !== undefined) this.collect(bucket, view, stamp, out)
    }
    if (prefix.size > 0) {
      for (let i = 0; i < distinct.length; i++) {
        const t = distinct[i]!
        for (let n = 1; n <= PREFIX_KEY && n <= t.length; n++) {
          if (prefixLengths[n] === 0) continue
          const bucket = prefix.get(n === t.length ? t : t.slice(0, n))
          if (bucket !== undefined) this.collect(bucket, view, stamp, out)
        }
      }
    }
    if (shelf.authorKeys > 0 && post.author !== '') {
      const bucket = exact.get(AUTHOR + post.author)
      if (bucket !== undefined) this.collect(bucket, view, stamp, out)
    }
    if (shelf.flairKeys > 0)
      for (const t of post.flair) {
        const bucket = exact.get(FLAIR + t)
        if (bucket !== undefined) this.collect(bucket, view, stamp, out)
      }
    if (shelf.locKeys > 0)
      for (const k of post.places) {
        const bucket = exact.get(LOC + k)
        if (bucket !== undefined) this.collect(bucket, view, stamp, out)
      }
    if (shelf.always.length > 0) this.collect(shelf.always, view, stamp, out)
    return out
  }

  /** Number of distinct alternatives stored (after sharing), for diagnostics. */
  get groupCount(): number {
    let n = 0
    for (const s of Object.values(this.shelves)) n += s.groups.size
    return n
  }

  private collect(bucket: Group[], view: PostView, stamp: number, out: R[]): void {
    for (let i = 0; i < bucket.length; i++) {
      const g = bucket[i]!
      if (g.stamp === stamp) continue // a group reached through two keys
      g.stamp = stamp
      if (!verify(g, view)) continue
      const refs = g.refs
      for (let j = 0; j < refs.length; j++) out.push(refs[j]! as R)
      const multis = g.multis
      if (multis !== null)
        for (let j = 0; j < multis.length; j++) {
          const owner = multis[j]!.owner!
          if (owner.stamp === stamp) continue // another alternative of this term already matched
          owner.stamp = stamp
          out.push(owner.ref as R)
        }
    }
  }

  /** Rarest first; ties → longer, then alphabetical (deterministic). */
  private rarer(a: string, b: string): boolean {
    const ra = this.df.get(a) ?? 0
    const rb = this.df.get(b) ?? 0
    if (ra !== rb) return ra < rb
    if (a.length !== b.length) return a.length > b.length
    return a < b
  }

  /** The rarest exact token among the sequences (a prefix sequence's last token excluded), or null. */
  private rarest(seqs: CompiledSequence[], categories: boolean): string | null {
    let best: string | null = null
    for (const s of seqs) {
      if ((s.category !== undefined) !== categories) continue
      const n = s.prefix ? s.tokens.length - 1 : s.tokens.length
      for (let i = 0; i < n; i++) if (best === null || this.rarer(s.tokens[i]!, best)) best = s.tokens[i]!
    }
    return best
  }

  /**
   * The key(s) every matching post is found by, most selective first: the author; the rarest
   * exact word; for words that only name a category, the category token AND the rarest of its
   * words (the post has one or the other); a prefix; a flair word; a place (`loc:`); else checked for every post.
   */
  private keysOf(alt: CompiledAlternative): { kind: KeyKind; key: string; key2: string | null } {
    if (alt.authors) return { kind: 'exact', key: AUTHOR + alt.authors[0]!, key2: null }
    const best = this.rarest(alt.include, false)
    if (best !== null) return { kind: 'exact', key: best, key2: null }
    for (const s of alt.include)
      if (s.category !== undefined) {
        // one category sequence: its token, or its own rarest word
        let word = s.tokens[0]!
        for (const t of s.tokens) if (this.rarer(t, word)) word = t
        return { kind: 'exact', key: s.category, key2: word }
      }
    if (alt.include.length > 0) {
      // Only prefix words: file under the longest prefix's first ≤3 characters.
      let p = ''
      for (const s of alt.include) if (s.tokens[0]!.length > p.length) p = s.tokens[0]!
      return { kind: 'prefix', key: p.slice(0, PREFIX_KEY), key2: null }
    }
    for (const s of alt.flair ?? []) if (!s.prefix || s.tokens.length > 1) return { kind: 'exact', key: FLAIR + s.tokens[0]!, key2: null }
    if (alt.places) return { kind: 'exact', key: LOC + alt.places[0]!, key2: null }
    return { kind: 'always', key: '', key2: null }
  }

  private bucketOf(shelf: Shelf, kind: KeyKind, key: string): Group[] {
    if (kind === 'always') return shelf.always
    if (kind === 'prefix') shelf.prefixLengths[key.length]!++
    if (key.startsWith(AUTHOR)) shelf.authorKeys++
    else if (key.startsWith(FLAIR)) shelf.flairKeys++
    else if (key.startsWith(LOC)) shelf.locKeys++
    const map = kind === 'prefix' ? shelf.prefix : shelf.exact
    let bucket = map.get(key)
    if (!bucket) map.set(key, (bucket = []))
    return bucket
  }

  private file(shelf: Shelf, alt: CompiledAlternative): Group {
    const { kind, key, key2 } = this.keysOf(alt)
    const bucket = this.bucketOf(shelf, kind, key)
    const bucket2 = key2 === null ? null : this.bucketOf(shelf, 'exact', key2)

    // Whole-post necessary conditions: the other exact words (category sequences excluded: their
    // token may stand in for them) and the other sequences.
    const req: string[] = []
    const seqs: CompiledSequence[] = []
    for (const s of alt.include) {
      if (s.category !== undefined) continue
      if (s.single) {
        if (s.tokens[0] !== key && !req.includes(s.tokens[0]!)) req.push(s.tokens[0]!)
      } else seqs.push(s)
    }
    let lo = -Infinity,
      loIncl = false,
      hi = Infinity,
      hiIncl = false
    for (const b of alt.prices) {
      if (b.op === '>' || b.op === '>=') {
        if (b.amount > lo || (b.amount === lo && b.op === '>')) [lo, loIncl] = [b.amount, b.op === '>=']
      } else if (b.amount < hi || (b.amount === hi && b.op === '<')) [hi, hiIncl] = [b.amount, b.op === '<=']
    }
    const group: Group = {
      signature: alt.signature,
      stamp: 0,
      alt,
      simple: alt.simple,
      scopeFree: alt.scopeFree,
      extrasMatter: alt.exclude.some((e) => e.scope === undefined) || (alt.allow & MARK_EXTRA) === 0,
      touch: !alt.simple || alt.include.some((s) => s.prefix) ? null : alt.include.flatMap((s) => s.tokens),
      priced: alt.prices.length > 0,
      lo,
      loIncl,
      hi,
      hiIncl,
      req: req.length > 0 ? req : null,
      seqs: seqs.length > 0 ? seqs : null,
      exc: alt.exclude.length > 0 ? alt.exclude : null,
      refs: [],
      multis: null,
      bucket,
      bucketPos: bucket.length,
      kind,
      key,
      bucket2,
      bucketPos2: bucket2 === null ? 0 : bucket2.length,
      key2: key2 ?? '',
    }
    bucket.push(group)
    bucket2?.push(group)
    shelf.groups.set(alt.signature, group)
    return group
  }

  private unfile(shelf: Shelf, g: Group): void {
    shelf.groups.delete(g.signature)
    this.unbucket(shelf, g.bucket, g.bucketPos, g.kind, g.key)
    if (g.bucket2 !== null) this.unbucket(shelf, g.bucket2, g.bucketPos2, 'exact', g.key2)
  }

  private unbucket(shelf: Shelf, bucket: Group[], pos: number, kind: KeyKind, key: string): void {
    // a group sits in at most two buckets, never twice in one: its position there is bucketPos or bucketPos2
    swapRemove(bucket, pos, (x, p) => (x.bucket === bucket ? (x.bucketPos = p) : (x.bucketPos2 = p)))
    if (kind === 'always') return
    if (kind === 'prefix') shelf.prefixLengths[key.length]!--
    if (key.startsWith(AUTHOR)) shelf.authorKeys--
    else if (key.startsWith(FLAIR)) shelf.flairKeys--
    else if (key.startsWith(LOC)) shelf.locKeys--
    if (bucket.length === 0) (kind === 'prefix' ? shelf.prefix : shelf.exact).delete(key)
  }
}

function compile(text: string, dict: CompiledDictionary): CompiledAlternative[] | { ok: false; error: string } {
  const parsed = parseTerm(text)
  return parsed.ok ? compileTerm(parsed.query, dict).alternatives : parsed
}

function swapRemove<T>(arr: T[], pos: number, moved: (item: T, pos: number) => void): void {
  const last = arr.pop()!
  if (pos < arr.length) {
    arr[pos] = last
    moved(last, pos)
  }
}
