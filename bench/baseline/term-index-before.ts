// The TermIndex as it was before issue 11 (commit 5080078), kept as the matcher bench's baseline:
// the old build path, measured in the same run (every term parsed and compiled on its own, a slot
// object and a Map entry per term). Only the imports and the class name changed; it parses with
// today's parse.ts and compile.ts (so the baseline has their speed-ups too). Not used by the app.

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

import { compileTerm, sequenceOccurs, type CompiledAlternative, type CompiledSequence, type PreparedPost } from '../../src/matching/compile'
import { parseTerm } from '../../src/matching/parse'
import type { Category } from '../../src/access/categories'

export type TermRef = { termId: number; userId: number; category: Category; text: string }

const PREFIX_KEY = 3

/** Shared by the slots of a term with several alternatives, to report it once per post. */
type Owner = { ref: TermRef; stamp: number }
/** One term in one group. Single-alternative slots sit in `group.singles` (parallel to `group.refs`). */
type Slot = { group: Group; pos: number; owner: Owner | null }

type Group = {
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
  refs: TermRef[]
  singles: Slot[]
  multis: Slot[]
  bucket: Group[]
  bucketPos: number
  prefixKey: boolean
  key: string
}

type Shelf = {
  exact: Map<string, Group[]>
  prefix: Map<string, Group[]>
  groups: Map<string, Group>
  /** how many prefix groups are keyed with 1, 2, 3 characters (index = length). */
  prefixLengths: number[]
}

function newShelf(): Shelf {
  return { exact: new Map(), prefix: new Map(), groups: new Map(), prefixLengths: [0, 0, 0, 0] }
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

export class TermIndexBefore {
  private shelves: Record<Category, Shelf> = { wts: newShelf(), wtb: newShelf(), gd: newShelf() }
  private terms = new Map<number, Slot | Slot[]>()
  private stamp = 0
  /** document frequency of tokens over observed posts; unseen tokens count as rarest. */
  private df = new Map<string, number>()

  get size(): number {
    return this.terms.size
  }

  /** Feeds token rarity. Only affects which key future terms are filed under, never results. */
  observe(post: PreparedPost): void {
    for (const t of post.distinct) this.df.set(t, (this.df.get(t) ?? 0) + 1)
  }

  /** Parses, compiles and files the term; replaces an existing term with the same id. */
  add(ref: TermRef): { ok: true } | { ok: false; error: string } {
    const shelf = this.shelves[ref.category]
    if (!shelf) return { ok: false, error: `Unknown category: ${String(ref.category)}` }
    const parsed = parseTerm(ref.text)
    if (!parsed.ok) return parsed
    this.remove(ref.termId)
    const alts = compileTerm(parsed.query).alternatives
    if (alts.length === 1) {
      const group = shelf.groups.get(alts[0]!.signature) ?? this.file(shelf, alts[0]!)
      const slot: Slot = { group, pos: group.singles.length, owner: null }
      group.singles.push(slot)
      group.refs.push(ref)
      this.terms.set(ref.termId, slot)
    } else {
      const owner: Owner = { ref, stamp: 0 }
      const slots = alts.map((alt) => {
        const group = shelf.groups.get(alt.signature) ?? this.file(shelf, alt)
        const slot: Slot = { group, pos: group.multis.length, owner }
        group.multis.push(slot)
        return slot
      })
      this.terms.set(ref.termId, slots)
    }
    return { ok: true }
  }

  remove(termId: number): void {
    const entry = this.terms.get(termId)
    if (entry === undefined) return
    this.terms.delete(termId)
    for (const slot of Array.isArray(entry) ? entry : [entry]) {
      const g = slot.group
      if (slot.owner !== null) swapRemove(g.multis, slot.pos, (s, p) => (s.pos = p))
      else {
        swapRemove(g.refs, slot.pos, () => {})
        swapRemove(g.singles, slot.pos, (s, p) => (s.pos = p))
      }
      if (g.singles.length + g.multis.length === 0) this.unfile(g)
    }
  }

  clear(): void {
    this.shelves = { wts: newShelf(), wtb: newShelf(), gd: newShelf() }
    this.terms.clear()
  }

  /** Every term of this category that matches the post, once each. */
  match(post: PreparedPost, category: Category): TermRef[] {
    const shelf = this.shelves[category]
    const out: TermRef[] = []
    if (!shelf || this.terms.size === 0) return out
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

  private collect(bucket: Group[], post: PreparedPost, stamp: number, out: TermRef[]): void {
    for (let i = 0; i < bucket.length; i++) {
      const g = bucket[i]!
      if (g.stamp === stamp) continue // a prefix group reached through two tokens
      g.stamp = stamp
      if (!verify(g, post)) continue
      const refs = g.refs
      for (let j = 0; j < refs.length; j++) out.push(refs[j]!)
      const multis = g.multis
      for (let j = 0; j < multis.length; j++) {
        const owner = multis[j]!.owner!
        if (owner.stamp === stamp) continue // another alternative of this term already matched
        owner.stamp = stamp
        out.push(owner.ref)
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
      singles: [],
      multis: [],
      bucket,
      bucketPos: bucket.length,
      prefixKey,
      key,
    }
    bucket.push(group)
    shelf.groups.set(alt.signature, group)
    return group
  }

  private unfile(g: Group): void {
    const shelf = Object.values(this.shelves).find((s) => s.groups.get(g.signature) === g)!
    shelf.groups.delete(g.signature)
    swapRemove(g.bucket, g.bucketPos, (x, p) => (x.bucketPos = p))
    if (g.prefixKey) shelf.prefixLengths[g.key.length]!--
    if (g.bucket.length === 0) (g.prefixKey ? shelf.prefix : shelf.exact).delete(g.key)
  }
}

function swapRemove<T>(arr: T[], pos: number, moved: (item: T, pos: number) => void): void {
  const last = arr.pop()!
  if (pos < arr.length) {
    arr[pos] = last
    moved(last, pos)
  }
}
