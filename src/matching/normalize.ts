// Text normalisation shared by terms and posts. Both sides go through the same steps, in this order:
//   1. Unicode NFKD, then lowercase (NFKD first: styled letters like "𝗧𝗿𝗶𝗷𝗶𝗰𝗼𝗻" only become plain
//      capitals under NFKD, so lowercasing first would leave them upper-case; full-width "ＡＲ１５" →
//      "ar15", ligatures split),
//   2. drop combining marks (accents: "Trijicón" → "trijicon"),
//   3. tokens are runs of letters or runs of digits — so a letter↔digit boundary splits
//      ("p365xl" → p 365 xl) and everything else (punctuation, emoji, spaces) separates,
//   4. plural folding of letter tokens (`foldPlural`, rules below),
//   5. two short letter runs (1–2 letters each) glued by one "&" are one word, written with its "&":
//      "S&W" → "s&w", "H&K" → "h&k", "AT&T" → "at&t" (`joinAmpersands`). The dictionary reads such a
//      word as the brand it abbreviates ("s&w" → smith wesson) and splits any other back into its
//      parts ("m&p" → m p), so only named brands change. "Holster & mag", "Schmidt&Bender" are not joined.
// Pure and free of runtime imports: highlight.ts uses it in the browser.
// ASCII text (nearly every term and most posts) takes a plain character loop with the same result:
// for ASCII, step 1 is only lowercasing, there are no marks, and letters/digits are [a-z]/[0-9].

const MARKS = /\p{M}+/gu
const TOKEN = /\p{L}+|\p{N}+/gu

/** NFKD + lowercase + accents removed; not yet split. */
export function fold(text: string): string {
  return text.normalize('NFKD').toLowerCase().replace(MARKS, '')
}

// -ves plurals that come from -f/-fe (the rest, "sleeves", "gloves", "valves", just lose the s).
const VES = new Map<string, string>([
  ['knives', 'knife'],
  ['wives', 'wife'],
  ['lives', 'life'],
  ['halves', 'half'],
  ['shelves', 'shelf'],
  ['wolves', 'wolf'],
  ['leaves', 'leaf'],
  ['thieves', 'thief'],
  ['calves', 'calf'],
  ['scarves', 'scarf'],
  ['loaves', 'loaf'],
  ['elves', 'elf'],
])

/**
 * The plural rule, applied to one already-folded letter token (digit runs never end in a letter).
 * Rules, first that applies:
 *   - "-ie" words of 5+ letters end in "y", singular or plural: "batteries"/"battery" → battery,
 *     "hoodies"/"hoodie" → hoody (so the singular of an -ies plural always agrees with it);
 *   - "-ves" from -f/-fe by a small table: "knives" → knife, "halves" → half;
 *   - "-sses", "-xes", "-zzes", "-ches", "-shes" lose "es": "glasses" → glass, "boxes" → box,
 *     "watches" → watch, "brushes" → brush;
 *   - otherwise a word of 4+ letters ending in "s" but not "ss" loses the "s": "mags" → mag,
 *     "scopes" → scope, "cases" → case, "sleeves" → sleeve; "glass", "gas" stay.
 * A singular never ends in one of the removed endings after folding, so folding twice changes nothing.
 */
export function foldPlural(token: string): string {
  const n = token.length
  if (n < 4) return token
  const last = token.charCodeAt(n - 1)
  if (last === 101 /* e */) {
    return n >= 5 && token.charCodeAt(n - 2) === 105 /* i */ ? token.slice(0, n - 2) + 'y' : token
  }
  if (last !== 115 /* s */) return token
  const p = token.charCodeAt(n - 2)
  if (p === 115) return token // "ss"
  if (p !== 101 /* e */ || n < 5) return token.slice(0, n - 1)
  const q = token.charCodeAt(n - 3)
  if (q === 105 /* i */) return token.slice(0, n - 3) + 'y' // ies
  if (q === 118 /* v */) return VES.get(token) ?? token.slice(0, n - 1)
  if (q === 120 /* x */) return token.slice(0, n - 2)
  if (q === 115 /* s */) return token.charCodeAt(n - 4) === 115 ? token.slice(0, n - 2) : token.slice(0, n - 1)
  if (q === 122 /* z */) return token.charCodeAt(n - 4) === 122 ? token.slice(0, n - 2) : token.slice(0, n - 1)
  if (q === 104 /* h */) {
    const r = token.charCodeAt(n - 4)
    return r === 99 /* c */ || r === 115 /* s */ ? token.slice(0, n - 2) : token.slice(0, n - 1)
  }
  return token.slice(0, n - 1)
}

/** Longest letter run on either side of a joining "&" (step 5). */
const AMP_PART_MAX = 2
/** Where the "&" of a joined word ("s&w", "at&t") is, or -1: the one test of a joined token. */
export function ampersandAt(t: string): number {
  const n = t.length
  if (n < 3 || n > 2 * AMP_PART_MAX + 1) return -1
  const a = t.indexOf('&')
  return a > 0 && a < n - 1 ? a : -1
}

const isLetterToken = (t: string) => {
  const c = t.charCodeAt(0)
  return !(c >= 48 && c <= 57)
}

/**
 * Step 5 on tokens with their [start, end) in `text` (the text the tokens were read from): a letter token
 * of at most 2 letters that starts right after "&" which directly follows another such token is joined to it.
 */
function joinAmpersands(text: string, tokens: string[], starts: number[], ends: number[]): void {
  let w = 0
  for (let r = 0; r < tokens.length; r++) {
    const t = tokens[r]!
    if (w > 0) {
      const p = tokens[w - 1]!
      if (
        t.length <= AMP_PART_MAX &&
        p.length <= AMP_PART_MAX &&
        starts[r]! - ends[w - 1]! === 1 &&
        text.charCodeAt(ends[w - 1]!) === 38 &&
        isLetterToken(t) &&
        isLetterToken(p) &&
        // a part is a whole letter run: "abc&de" does not join "bc"
        (w < 2 || ends[w - 2]! !== starts[w - 1]!)
      ) {
        tokens[w - 1] = `${p}&${t}`
        ends[w - 1] = ends[r]!
        continue
      }
    }
    tokens[w] = t
    starts[w] = starts[r]!
    ends[w] = ends[r]!
    w++
  }
  tokens.length = w
  starts.length = w
  ends.length = w
}

/** Does the text have an "&" at all (the cheap gate before step 5)? */
const hasAmp = (text: string) => text.includes('&') || text.includes('＆') || text.includes('﹠')

function foldToken(t: string): string {
  const c = t.charCodeAt(0)
  return c >= 48 && c <= 57 ? t : foldPlural(t)
}

/** Tokens of a text, plural-folded. */
export function normalize(text: string): string[] {
  if (!text) return []
  if (hasAmp(text)) return normalizeWithOffsets(text).tokens
  const out: string[] = []
  if (asciiTokens(text, out, null)) return out
  for (const m of fold(text).matchAll(TOKEN)) out.push(foldToken(m[0]))
  return out
}

/** Tokens of a text with the offset in the text where each starts and ends (UTF-16 units). */
export type OffsetTokens = { tokens: string[]; starts: number[]; ends: number[] }

export function normalizeWithOffsets(text: string): OffsetTokens {
  const res: OffsetTokens = { tokens: [], starts: [], ends: [] }
  if (!text) return res
  if (asciiTokens(text, res.tokens, res)) {
    if (hasAmp(text)) joinAmpersands(text, res.tokens, res.starts, res.ends)
    return res
  }
  for (const s of tokenSpans(text)) {
    res.tokens.push(s.token)
    res.starts.push(s.start)
    res.ends.push(s.end)
  }
  return res
}

/** 0 separator, 1 letter, 2 digit (ASCII). */
function asciiKind(c: number): number {
  if (c >= 97 ? c <= 122 : c >= 65 && c <= 90) return 1
  return c >= 48 && c <= 57 ? 2 : 0
}

/** Fills `out` (and offsets) and returns true when the text is all ASCII; otherwise leaves `out` empty and returns false. */
function asciiTokens(text: string, out: string[], offsets: OffsetTokens | null): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 127) return false
  const s = text.toLowerCase()
  let start = 0
  let kind = 0
  for (let i = 0; i <= s.length; i++) {
    const k = i < s.length ? asciiKind(s.charCodeAt(i)) : 0
    if (k === kind) continue
    if (kind !== 0) {
      const t = s.slice(start, i)
      out.push(kind === 1 ? foldPlural(t) : t)
      if (offsets) {
        offsets.starts.push(start)
        offsets.ends.push(i)
      }
    }
    kind = k
    start = i
  }
  return true
}

export type TokenSpan = { token: string; start: number; end: number }

/**
 * Tokens with their [start, end) offsets in the ORIGINAL text (UTF-16 units), for highlighting.
 * Each original code point is folded on its own; a code point that folds to several characters
 * (a ligature, "½") lends its whole span to every token it contributes to.
 */
export function tokenSpans(text: string): TokenSpan[] {
  const spans: TokenSpan[] = []
  let cur = ''
  let kind = 0 // 0 none, 1 letters, 2 digits
  let start = 0
  let end = 0
  const flush = () => {
    if (kind !== 0) spans.push({ token: kind === 1 ? foldPlural(cur) : cur, start, end })
    cur = ''
    kind = 0
  }
  let i = 0
  for (const ch of text) {
    const chStart = i
    i += ch.length
    for (const c of fold(ch)) {
      const k = /\p{L}/u.test(c) ? 1 : /\p{N}/u.test(c) ? 2 : /\p{M}/u.test(c) ? -1 : 0
      if (k === -1) continue
      if (k !== kind) {
        flush()
        if (k !== 0) {
          kind = k
          start = chStart
        }
      }
      if (k !== 0) {
        cur += c
        end = i
      }
    }
  }
  flush()
  if (hasAmp(text)) {
    // step 5 on the original text: a full-width "＆" folds to "&" too
    const amp = text.replace(/[＆﹠]/g, '&')
    const tokens = spans.map((x) => x.token)
    const starts = spans.map((x) => x.start)
    const ends = spans.map((x) => x.end)
    joinAmpersands(amp, tokens, starts, ends)
    return tokens.map((token, k) => ({ token, start: starts[k]!, end: ends[k]! }))
  }
  return spans
}
