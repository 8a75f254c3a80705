// Marks the words of a title that saved terms look for, for the UI. Pure, browser-safe.
// Every occurrence of every required word, phrase or prefix of every alternative is marked (an
// occurrence of a multi-token word like "p365" covers "P-365" including the dash); exclusions and
// price bounds mark nothing. Segments concatenate back to the exact title.

import { tokenSpans, type TokenSpan } from './normalize'
import { parseTerm, type Sequence } from './parse'

export type Segment = { text: string; hit: boolean }

function occurrences(seq: Sequence, spans: TokenSpan[], mark: (from: number, to: number) => void): void {
  const n = seq.tokens.length
  for (let p = 0; p + n <= spans.length; p++) {
    let ok = true
    for (let k = 0; k < n && ok; k++) {
      const t = spans[p + k]!.token
      const want = seq.tokens[k]!
      ok = seq.prefix && k === n - 1 ? t.startsWith(want) : t === want
    }
    if (ok) mark(spans[p]!.start, spans[p + n - 1]!.end)
  }
}

export function highlight(title: string, terms: string[]): Segment[] {
  if (!title) return []
  const spans = tokenSpans(title)
  const hit = new Uint8Array(title.length)
  const mark = (from: number, to: number) => hit.fill(1, from, to)
  for (const text of terms) {
    const parsed = parseTerm(text)
    if (!parsed.ok) continue
    for (const alt of parsed.query.alternatives) for (const seq of alt.include) occurrences(seq, spans, mark)
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
