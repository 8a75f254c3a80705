// Text normalisation shared by terms and posts. Both sides go through the same steps, in this order:
//   1. lowercase, then Unicode NFKD (full-width "ＡＲ１５" → "ar15", ligatures split),
//   2. drop combining marks (accents: "Trijicón" → "trijicon"),
//   3. tokens are runs of letters or runs of digits — so a letter↔digit boundary splits
//      ("p365xl" → p 365 xl) and everything else (punctuation, emoji, spaces) separates,
//   4. plural folding: a letter token of 4+ characters ending in "s" but not "ss" loses the "s"
//      ("mags" → "mag", "optics" → "optic", "glass" stays, "gas" stays).
// Pure and free of runtime imports: highlight.ts uses it in the browser.
// ASCII text (nearly every term and most posts) takes a plain character loop with the same result:
// for ASCII, step 1 is only lowercasing, there are no marks, and letters/digits are [a-z]/[0-9].

const MARKS = /\p{M}+/gu
const TOKEN = /\p{L}+|\p{N}+/gu

/** Lowercase + NFKD + accents removed; not yet split. */
export function fold(text: string): string {
  return text.toLowerCase().normalize('NFKD').replace(MARKS, '')
}

/** The plural rule, applied to one already-lowercased token. */
export function foldPlural(token: string): string {
  const n = token.length
  if (n >= 4 && token.charCodeAt(n - 1) === 115 /* s */ && token.charCodeAt(n - 2) !== 115) {
    return token.slice(0, n - 1)
  }
  return token
}

/** Tokens of a text, plural-folded. */
export function normalize(text: string): string[] {
  const out: string[] = []
  if (!text) return out
  if (asciiTokens(text, out)) return out
  for (const m of fold(text).matchAll(TOKEN)) out.push(foldPlural(m[0]))
  return out
}

/** 0 separator, 1 letter, 2 digit (ASCII). */
function asciiKind(c: number): number {
  if (c >= 97 ? c <= 122 : c >= 65 && c <= 90) return 1
  return c >= 48 && c <= 57 ? 2 : 0
}

/** Fills `out` and returns true when the text is all ASCII; otherwise leaves `out` empty and returns false. */
function asciiTokens(text: string, out: string[]): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 127) return false
  const s = text.toLowerCase()
  let start = 0
  let kind = 0
  for (let i = 0; i <= s.length; i++) {
    const k = i < s.length ? asciiKind(s.charCodeAt(i)) : 0
    if (k === kind) continue
    if (kind !== 0) out.push(foldPlural(s.slice(start, i)))
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
    if (kind !== 0) spans.push({ token: foldPlural(cur), start, end })
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
  return spans
}
