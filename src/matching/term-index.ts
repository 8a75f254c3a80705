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

import { compileTerm, sequenceOccurs, type CompiledAlternative, type CompiledSequence, type PreparedPost } from './compile'
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
  // Inline checks, cheapest first. The key token itself is not re-checked.
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
  prefixKey: boolean
  key: string
}

type Shelf = {
  exact: Map<string, Group[]>
  prefix: Map<string, Group[]>
  groups: Map<string, Group>
  texts: Map<string, Text>
  /** how many prefix groups are keyed with 1, 2, 3 characters (index = length). */
  prefixLengths: number[]
}

function newShelf(): Shelf {
  return { exact: new Map(), prefix: new Map(), groups: new Map(), texts: new Map(), prefixLengths: [0, 0, 0, 0] }
}

function verify(g: Group, post: PreparedPost): boolean {
  if (g.priced) {
    const prices = post.prices
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
  const exc = g.exc
  if (exc !== null) for (let i = 0; i < exc.length; i++) if (sequenceOccurs(exc[i]!, post)) return false
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
      const compiled = ref.text === this.compiledKey ? this.compiledAlts : compile(ref.text)
      if (!Array.isArray(compiled)) return compiled
      alts = this.compiledAlts = compiled
      this.compiledKey = ref.text
    }
    const id = ref.termId
    if (id < this.where.length && this.where[id] !== undefined) this.remove(id)
    // While a text has terms its groups are not empty, so they stay filed and `text.groups` valid.
    // The remove above may have dropped this very text (a term replaced by its own text): file again.
    if (text === undefined || text.uses === 0) {
      alts ??= compile(ref.text) as CompiledAlternative[] // it compiled when first added
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
    const distinct = post.distinct
    const { exact, prefix, prefixLengths } = shelf
    for (let i = 0; i < distinct.length; i++) {
      const bucket = exact.get(distinct[i]!)
      if (bucket !== undefined) this.collect(bucket, post, stamp, out)
    }
    if (prefix.size > 0) {
      for (let i = 0; i < distinct.length; i++) {
        const t = distinct[i]!
        for (let n = 1; n <= PREFIX_KEY && n <= t.length; n++) {
          if (prefixLengths[n] === 0) continue
          const bucket = prefix.get(n === t.length ? t : t.slice(0, n))
          if (bucket !== undefined) this.collect(bucket, post, stamp, out)
        }
      }
    }
    return out
  }

  /** Number of distinct alternatives stored (after sharing), for diagnostics. */
  get groupCount(): number {
    let n = 0
    for (const s of Object.values(this.shelves)) n += s.groups.size
    return n
  }

  private collect(bucket: Group[], post: PreparedPost, stamp: number, out: R[]): void {
    for (let i = 0; i < bucket.length; i++) {
      const g = bucket[i]!
      if (g.stamp === stamp) continue // a prefix group reached through two tokens
      g.stamp = stamp
      if (!verify(g, post)) continue
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

  private file(shelf: Shelf, alt: CompiledAlternative): Group {
    // Exact candidates: every token of every include sequence except a prefix sequence's last one.
    let best: string | null = null
    for (const s of alt.include) {
      const n = s.prefix ? s.tokens.length - 1 : s.tokens.length
      for (let i = 0; i < n; i++) if (best === null || this.rarer(s.tokens[i]!, best)) best = s.tokens[i]!
    }
    let key: string
    let prefixKey = false
    if (best !== null) key = best
    else {
      // Only prefix words: file under the longest prefix's first ≤3 characters.
      let p = ''
      for (const s of alt.include) if (s.tokens[0]!.length > p.length) p = s.tokens[0]!
      key = p.slice(0, PREFIX_KEY)
      prefixKey = true
      shelf.prefixLengths[key.length]!++
    }
    const map = prefixKey ? shelf.prefix : shelf.exact
    let bucket = map.get(key)
    if (!bucket) map.set(key, (bucket = []))

    const req: string[] = []
    const seqs: CompiledSequence[] = []
    for (const s of alt.include) {
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
      prefixKey,
      key,
    }
    bucket.push(group)
    shelf.groups.set(alt.signature, group)
    return group
  }

  private unfile(shelf: Shelf, g: Group): void {
    shelf.groups.delete(g.signature)
    swapRemove(g.bucket, g.bucketPos, (x, p) => (x.bucketPos = p))
    if (g.prefixKey) shelf.prefixLengths[g.key.length]!--
    if (g.bucket.length === 0) (g.prefixKey ? shelf.prefix : shelf.exact).delete(g.key)
  }
}

function compile(text: string): CompiledAlternative[] | { ok: false; error: string } {
  const parsed = parseTerm(text)
  return parsed.ok ? compileTerm(parsed.query).alternatives : parsed
}

function swapRemove<T>(arr: T[], pos: number, moved: (item: T, pos: number) => void): void {
  const last = arr.pop()!
  if (pos < arr.length) {
    arr[pos] = last
    moved(last, pos)
  }
}
