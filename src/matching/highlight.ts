// Marks the words of a title that saved terms look for, for the UI. Pure, browser-safe.
// The title is read as the matcher reads it (prepare.ts: aliases, category tokens, accessory-for
// marks), with each token's offsets in the original text. Every occurrence of every required word,
// phrase or prefix of every alternative is marked (an occurrence of a multi-token word like "p365"
// covers "P-365" including the dash), as are alias hits ("G19" for `glock 19`) and category hits
// ("507C" for `red dot`). Words that only appear as what an accessory fits ("holster for Glock 19")
// (or only in a replica item, or an item marked sold) are not marked unless the alternative asks for them. Exclusions, price bounds and field
// filters mark nothing. Segments concatenate back to the exact title.

import { compileTerm, type CompiledSequence } from './compile'
import { BUILTIN, canonicalWithOffsets, type CompiledDictionary } from './dictionary'
import { normalizeWithOffsets } from './normalize'
import { parseTerm } from './parse'
import { MARK_SPEC, type PreparedPost } from './post-model'
import { preparePost } from './prepare'

export type Segment = { text: string; hit: boolean }

/** How many tokens from p the dictionary member carrying `token` covers (1 when unknown). */
function memberLength(post: PreparedPost, p: number, token: string, dict: CompiledDictionary): number {
  const rows = [...(dict.memberByFirst.get(post.tokens[p]!) ?? []), ...dict.memberAnyNumber]
  let best = 1
  outer: for (const r of rows) {
    if (r.token !== token || p + r.seq.length > post.tokens.length) continue
    for (let k = 0; k < r.seq.length; k++) {
      const t = post.tokens[p + k]!
      if (r.seq[k] === '#' ? t === '' || !/^\d/.test(t) : t !== r.seq[k]) continue outer
    }
    if (r.seq.length > best) best = r.seq.length
  }
  return best
}

/** Calls mark(from, to) with token positions [from, to) of each allowed occurrence. */
function occurrences(seq: CompiledSequence, post: PreparedPost, allow: number, dict: CompiledDictionary, mark: (from: number, to: number) => void): void {
  if (seq.category !== undefined) allow &= ~MARK_SPEC // a spec of another product is no hit of the category (compile.ts)
  const ok = (p: number, n: number) => {
    for (let k = 0; k < n; k++) if ((post.fits[p + k]! & ~allow) !== 0) return false
    return true
  }
  if (seq.category !== undefined)
    for (const p of post.positions.get(seq.category) ?? []) {
      const n = memberLength(post, p, seq.category, dict)
      if (ok(p, n)) mark(p, p + n)
    }
  const n = seq.tokens.length
  for (let p = 0; p + n <= post.tokens.length; p++) {
    let match = true
    for (let k = 0; k < n && match; k++) {
      const t = post.tokens[p + k]!
      const want = seq.tokens[k]!
      match = seq.prefix && k === n - 1 ? t !== '' && t.startsWith(want) : t === want
    }
    if (match && ok(p, n)) mark(p, p + n)
  }
}

/**
 * The last titles and terms read, per dictionary: a scan's matches highlight the same few titles
 * for hundreds of users with the same terms, and reading a title or compiling a term costs far more
 * than marking it (bench/ingest.ts).
 */
const MEMO_SIZE = 256
type Read = { post: PreparedPost; spans: ReturnType<typeof canonicalWithOffsets> }
type Compiled = ReturnType<typeof compileTerm>['alternatives'] | null
const memos = new WeakMap<CompiledDictionary, { titles: Map<string, Read>; terms: Map<string, Compiled> }>()

function remember<K, V>(map: Map<K, V>, key: K, make: () => V): V {
  let v = map.get(key)
  if (v === undefined && !map.has(key)) {
    if (map.size >= MEMO_SIZE) map.delete(map.keys().next().value as K)
    map.set(key, (v = make()))
  }
  return v as V
}

export function highlight(title: string, terms: string[], dict: CompiledDictionary = BUILTIN): Segment[] {
  if (!title) return []
  let memo = memos.get(dict)
  if (!memo) memos.set(dict, (memo = { titles: new Map(), terms: new Map() }))
  const { post, spans } = remember(memo.titles, title, () => {
    const raw = normalizeWithOffsets(title)
    return { post: preparePost({ title }, dict), spans: canonicalWithOffsets(raw.tokens, raw.starts, raw.ends, dict) }
  })
  const hit = new Uint8Array(title.length)
  // The prepared title and the offsets come from the same steps; if they ever disagree, mark nothing rather than the wrong text.
  if (spans.tokens.length === post.tokens.length) {
    const mark = (from: number, to: number) => hit.fill(1, spans.starts[from]!, spans.ends[to - 1]!)
    for (const text of terms) {
      const alternatives = remember(memo.terms, text, () => {
        const parsed = parseTerm(text)
        return parsed.ok ? compileTerm(parsed.query, dict).alternatives : null
      })
      for (const alt of alternatives ?? []) for (const seq of alt.include) occurrences(seq, post, alt.allow, dict, mark)
    }
  }
  const out: Segment[] = []
  let from = 0
  for (let i = 1; i <= title.length; i++) {
    if (i === title.length || hit[i] !== hit[from]) {
      out.push({ text: title.slice(from, i), hit: hit[from] === 1 })
      from = i
    }
  }
  return out
}
