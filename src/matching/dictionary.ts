// Aliases and categories: the matcher's dictionary, applied to BOTH sides (terms and posts) so they
// always agree. The data is in dictionary/*.json beside this file, one file per market (guns, hardware,
// watches, …), checked on import like an admin's file (`BUILTIN_DICTIONARY`); this file is the code:
// the compiled lookups and the reader of those files.
//
// Aliases rewrite token sequences (tokens as `normalize` gives them: "G19" is g 19, "5.56" is 5 56,
// "S&B" is one word s&b) into one canonical spelling. Rules:
//   - the longest row starting at a position wins; the rewritten tokens are not rewritten again
//     (one left-to-right pass), and every `to` is already canonical, so canonical(canonical(x)) = canonical(x);
//   - rows never cross the title/body seam ('' token);
//   - a word joined by "&" ("s&w", normalize step 5) that no row rewrites is split back into its parts
//     ("m&p" → m p, "g&s" → g s): only the brands the dictionary names read differently.
// "&" inside a brand's name joins, it does not split items: a row whose `from` is such a joined word
// ("s&w" → smith wesson) also makes " & " between the words of its `to` ("Smith & Wesson") and of its
// `from` ("S & W") part of one item (`ampersandNames`, read by listing-structure.ts).
// Categories: each has a virtual token "@id" (normalize never yields "@" or "-", so it cannot collide
// with a word), the names users type for it, and members: token sequences a post uses for a product of
// the category ("#" in a member stands for any number; after a word, "5####" for a five-digit number starting with 5:
// "i 5####" reads "i52500", an i5-2500 written without separators). A post carries the category token at the
// position of each member's first token; a term naming the category asks for "the name as words OR
// the category token" (the term side compiles that from `categoryNames`).

import guns from './dictionary/guns.json'
import audio from './dictionary/audio.json'
import hardware from './dictionary/hardware.json'
import keyboards from './dictionary/keyboards.json'
import watches from './dictionary/watches.json'
import { ampersandAt, normalize } from './normalize'

export type AliasRow = { from: string; to: string }
export type CategoryDef = {
  /** lowercase letters, digits and '-': the token is '@' + id */
  id: string
  /** what users type for the category; a post using one of these words carries the category token too */
  names: string[]
  /** names users type that are too common in ordinary text to mark a post ("can", "pro") */
  termNames?: string[]
  /** products of the category as a seller writes them; "#" = any number */
  members: string[]
  /** ids of categories whose items hold this one as a spec: a hit inside such an item ("32GB RAM" in a server's
   *  item, "DAC chipset" in a player's) is what that product has, not one for sale (prepare.ts) */
  specOf?: string[]
}
export type Dictionary = { aliases: AliasRow[]; categories: CategoryDef[] }

// ---------------------------------------------------------------------------------------------
// Compiled form

type AliasEntry = { from: string[]; to: string[] }
type MemberEntry = { seq: string[]; token: string }
export type CategoryName = { id: string; token: string; words: string[] }

export type CompiledDictionary = {
  aliasByFirst: Map<string, AliasEntry[]>
  memberByFirst: Map<string, MemberEntry[]>
  /** members starting with "#" (any number) */
  memberAnyNumber: MemberEntry[]
  names: CategoryName[]
  /** word pairs ("smith wesson", "s w") of brands written with "&": " & " between them does not split items */
  ampersandNames: Set<string>
  /** category token → the tokens of the categories whose items hold it as a spec (CategoryDef.specOf) */
  specOf: Map<string, Set<string>>
}

const ANY_NUMBER = '#'
/** A member word of leading digits and "#" per further digit: a number of that length starting so ("5####": 52500). */
const DIGIT_PATTERN = /^\d+#+$/

/** A joined word that no alias row rewrote, split back into its parts ("m&p" → m, p). */
function splitJoined(tokens: string[]): string[] {
  if (!tokens.some((t) => ampersandAt(t) > 0)) return tokens
  return tokens.flatMap((t) => {
    const a = ampersandAt(t)
    return a > 0 ? [t.slice(0, a), t.slice(a + 1)] : [t]
  })
}

export function categoryToken(id: string): string {
  return '@' + id
}

function isNumber(t: string): boolean {
  const c = t.charCodeAt(0)
  return c >= 48 && c <= 57
}

/** Turns the data into lookups (aliases by first token, longest first; members likewise). */
export function compileDictionary(d: Dictionary): CompiledDictionary {
  const aliasByFirst = new Map<string, AliasEntry[]>()
  const ampersandNames = new Set<string>()
  for (const row of d.aliases) {
    const from = normalize(row.from)
    if (from.length === 0) continue
    const list = aliasByFirst.get(from[0]!) ?? []
    const to = splitJoined(normalize(row.to))
    list.push({ from, to })
    aliasByFirst.set(from[0]!, list)
    // a brand written with "&": its words, and the parts of its abbreviation, are one name
    for (const t of from) {
      const a = ampersandAt(t)
      if (a < 0) continue
      ampersandNames.add(`${t.slice(0, a)} ${t.slice(a + 1)}`)
      for (let k = 1; k < to.length; k++) ampersandNames.add(`${to[k - 1]} ${to[k]}`)
    }
  }
  for (const list of aliasByFirst.values()) list.sort((a, b) => b.from.length - a.from.length)
  const partial: CompiledDictionary = { aliasByFirst, memberByFirst: new Map(), memberAnyNumber: [], names: [], ampersandNames, specOf: new Map() }
  for (const c of d.categories) {
    const token = categoryToken(c.id)
    for (const text of [...c.names, ...c.members]) {
      // members go through the aliases too, so "5.56" and "556" members are the same row
      const seq = canonical(
        text.split(/\s+/).flatMap((w) => (w === ANY_NUMBER || DIGIT_PATTERN.test(w) ? [w] : normalize(w))),
        partial,
      )
      if (seq.length === 0) continue
      const entry = { seq, token }
      if (seq[0] === ANY_NUMBER) partial.memberAnyNumber.push(entry)
      else {
        const list = partial.memberByFirst.get(seq[0]!) ?? []
        list.push(entry)
        partial.memberByFirst.set(seq[0]!, list)
      }
    }
    if (c.specOf && c.specOf.length > 0) {
      const set = partial.specOf.get(token) ?? new Set<string>()
      for (const id of c.specOf) set.add(categoryToken(id))
      partial.specOf.set(token, set)
    }
    for (const name of [...c.names, ...(c.termNames ?? [])]) {
      const words = canonical(normalize(name), partial)
      if (words.length > 0) partial.names.push({ id: c.id, token, words })
    }
  }
  for (const list of partial.memberByFirst.values()) list.sort((a, b) => b.seq.length - a.seq.length)
  return partial
}

/** The category names (as canonical words) and their tokens, for the term side. */
export function categoryNames(dict: CompiledDictionary = BUILTIN): CategoryName[] {
  return dict.names
}

function aliasAt(tokens: string[], i: number, dict: CompiledDictionary): AliasEntry | null {
  const rows = dict.aliasByFirst.get(tokens[i]!)
  if (!rows) return null
  outer: for (const r of rows) {
    if (i + r.from.length > tokens.length) continue
    for (let k = 1; k < r.from.length; k++) if (tokens[i + k] !== r.from[k]) continue outer
    return r
  }
  return null
}

/** Aliases applied to a token sequence (the same function for terms and posts). */
export function canonical(tokens: string[], dict: CompiledDictionary = BUILTIN): string[] {
  let out: string[] | null = null
  for (let i = 0; i < tokens.length;) {
    const r = aliasAt(tokens, i, dict)
    if (!r) {
      const t = tokens[i]!
      const a = ampersandAt(t)
      if (a > 0) {
        // a joined word no row names: its parts, as before the join
        if (!out) out = tokens.slice(0, i)
        out.push(t.slice(0, a), t.slice(a + 1))
      } else if (out) out.push(t)
      i++
      continue
    }
    if (!out) out = tokens.slice(0, i)
    for (const t of r.to) out.push(t)
    i += r.from.length
  }
  return out ?? tokens
}

/**
 * `canonical` keeping each token's [start, end) offsets (for highlighting and listing structure).
 * A rewritten token takes the span of the input token at the same index when the row keeps its
 * length ("g 19" → "glock 19"), else the span of the whole matched input ("eo tech" → "eotech").
 */
export function canonicalWithOffsets(
  tokens: string[],
  starts: number[],
  ends: number[],
  dict: CompiledDictionary = BUILTIN,
): { tokens: string[]; starts: number[]; ends: number[] } {
  if (tokens.length === 0) return { tokens, starts, ends }
  let changed = false
  for (let i = 0; i < tokens.length && !changed; i++)
    if ((dict.aliasByFirst.has(tokens[i]!) && aliasAt(tokens, i, dict)) || ampersandAt(tokens[i]!) > 0) changed = true
  if (!changed) return { tokens, starts, ends }
  const t: string[] = []
  const s: number[] = []
  const e: number[] = []
  for (let i = 0; i < tokens.length;) {
    const r = aliasAt(tokens, i, dict)
    if (!r) {
      const tok = tokens[i]!
      const a = ampersandAt(tok)
      if (a > 0) {
        // split back: each part its own characters when the span is the word as written ("M&P"), else the whole span
        const exact = ends[i]! - starts[i]! === tok.length
        t.push(tok.slice(0, a), tok.slice(a + 1))
        s.push(starts[i]!, exact ? starts[i]! + a + 1 : starts[i]!)
        e.push(exact ? starts[i]! + a : ends[i]!, ends[i]!)
      } else {
        t.push(tok)
        s.push(starts[i]!)
        e.push(ends[i]!)
      }
      i++
      continue
    }
    const n = r.from.length
    for (let k = 0; k < r.to.length; k++) {
      t.push(r.to[k]!)
      if (r.to.length === n) {
        s.push(starts[i + k]!)
        e.push(ends[i + k]!)
      } else {
        s.push(starts[i]!)
        e.push(ends[i + n - 1]!)
      }
    }
    i += n
  }
  return { tokens: t, starts: s, ends: e }
}

/** Category tokens of a (canonical) token sequence: each with the position of its member's first token. */
export function findCategories(tokens: string[], dict: CompiledDictionary = BUILTIN): { token: string; pos: number }[] {
  const found: { token: string; pos: number }[] = []
  const any = dict.memberAnyNumber
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!
    if (t === '') continue
    const rows = dict.memberByFirst.get(t)
    if (rows) for (const r of rows) if (seqAt(tokens, i, r.seq)) found.push({ token: r.token, pos: i })
    if (any.length > 0 && isNumber(t)) for (const r of any) if (seqAt(tokens, i, r.seq)) found.push({ token: r.token, pos: i })
  }
  return found
}

function seqAt(tokens: string[], i: number, seq: string[]): boolean {
  if (i + seq.length > tokens.length) return false
  for (let k = 1; k < seq.length; k++) {
    const t = tokens[i + k]!
    const w = seq[k]!
    if (w === ANY_NUMBER ? t === '' || !isNumber(t) : w.endsWith(ANY_NUMBER) ? !digitsLike(t, w) : t !== w) return false
  }
  return true
}

/** Does the number token fit the digit pattern ("5####": five digits starting with 5)? */
function digitsLike(t: string, pattern: string): boolean {
  if (t.length !== pattern.length || !isNumber(t)) return false
  for (let i = 0; i < pattern.length && pattern[i] !== ANY_NUMBER; i++) if (t[i] !== pattern[i]) return false
  return true
}

/** Adds the rows of `extra` (an admin's file) to `base`; a category with a known id gains names and members. */
export function mergeDictionary(base: Dictionary, extra: Dictionary): Dictionary {
  const categories = base.categories.map((c) => ({
    ...c,
    names: [...c.names],
    termNames: [...(c.termNames ?? [])],
    members: [...c.members],
    specOf: [...(c.specOf ?? [])],
  }))
  for (const c of extra.categories) {
    const known = categories.find((k) => k.id === c.id)
    if (!known) categories.push({ ...c, termNames: [...(c.termNames ?? [])], specOf: [...(c.specOf ?? [])] })
    else {
      known.names.push(...c.names)
      known.termNames.push(...(c.termNames ?? []))
      known.members.push(...c.members)
      known.specOf.push(...(c.specOf ?? []))
    }
  }
  return { aliases: [...base.aliases, ...extra.aliases], categories }
}

const ID = /^[a-z0-9]+(-[a-z0-9]+)*$/
const MAX_TEXT = 100

function stringList(v: unknown, where: string): string[] | string {
  if (v === undefined) return []
  if (!Array.isArray(v)) return `${where} must be a list of texts`
  for (const x of v)
    if (typeof x !== 'string' || x.trim() === '' || x.length > MAX_TEXT) return `${where} must hold non-empty texts of at most ${MAX_TEXT} characters`
  return v as string[]
}

/**
 * Reads an admin's dictionary file:
 * `{"aliases": [{"from": "bcm", "to": "bravo company"}], "categories": [{"id": "red-dot", "names": [], "members": ["rmr 2"]}]}`.
 * Both keys are optional. An alias's `from` must have at least one word; a category id is lowercase
 * letters/digits with single dashes; names and members are texts (members may use "#" for any number, and after a word digits then "#"s for a number of that length starting so:
 * "i 5####" is "i52500"); `specOf`
 * lists ids of categories whose items hold this one as a spec.
 */
export function parseDictionaryJson(text: string): DictionaryCheck {
  let data: unknown
  try {
    data = JSON.parse(text)
  } catch (e) {
    return { ok: false, error: `not JSON: ${(e as Error).message}` }
  }
  return checkDictionary(data)
}

type DictionaryCheck = { ok: true; dictionary: Dictionary } | { ok: false; error: string }

/** Checks parsed dictionary data (an admin's file, or one of the built-in files without its "market"/"about"). */
export function checkDictionary(data: unknown): DictionaryCheck {
  if (typeof data !== 'object' || data === null || Array.isArray(data))
    return { ok: false, error: 'the dictionary must be an object with "aliases" and/or "categories"' }
  const obj = data as Record<string, unknown>
  for (const k of Object.keys(obj)) if (k !== 'aliases' && k !== 'categories') return { ok: false, error: `unknown key "${k}" (allowed: aliases, categories)` }
  const aliases: AliasRow[] = []
  const rawAliases = obj.aliases ?? []
  if (!Array.isArray(rawAliases)) return { ok: false, error: '"aliases" must be a list' }
  for (const [i, a] of rawAliases.entries()) {
    const row = a as Record<string, unknown>
    if (typeof a !== 'object' || a === null || typeof row.from !== 'string' || typeof row.to !== 'string') {
      return { ok: false, error: `aliases[${i}] must be {"from": text, "to": text}` }
    }
    if (normalize(row.from).length === 0) return { ok: false, error: `aliases[${i}].from has no word (letters or digits)` }
    if (row.from.length > MAX_TEXT || row.to.length > MAX_TEXT) return { ok: false, error: `aliases[${i}] is longer than ${MAX_TEXT} characters` }
    aliases.push({ from: row.from, to: row.to })
  }
  const categories: CategoryDef[] = []
  const rawCats = obj.categories ?? []
  if (!Array.isArray(rawCats)) return { ok: false, error: '"categories" must be a list' }
  for (const [i, c] of rawCats.entries()) {
    const cat = c as Record<string, unknown>
    if (typeof c !== 'object' || c === null || typeof cat.id !== 'string' || !ID.test(cat.id)) {
      return { ok: false, error: `categories[${i}].id must be lowercase letters or digits with single dashes, like "red-dot"` }
    }
    const names = stringList(cat.names, `categories[${i}].names`)
    const termNames = stringList(cat.termNames, `categories[${i}].termNames`)
    const members = stringList(cat.members, `categories[${i}].members`)
    const specOf = stringList(cat.specOf, `categories[${i}].specOf`)
    for (const v of [names, termNames, members, specOf]) if (typeof v === 'string') return { ok: false, error: v }
    for (const id of specOf as string[]) if (!ID.test(id)) return { ok: false, error: `categories[${i}].specOf names "${id}", not a category id` }
    const def: CategoryDef = { id: cat.id, names: names as string[], termNames: termNames as string[], members: members as string[] }
    if ((specOf as string[]).length > 0) def.specOf = specOf as string[]
    categories.push(def)
  }
  return { ok: true, dictionary: { aliases, categories } }
}

// ---------------------------------------------------------------------------------------------
// The built-in data: one file per market. Each is `{"market", "about", "aliases", "categories"}`; rows and
// categories may carry a "why" (the reason for the row, read by people only). Order is the files' order below.

const BUILTIN_FILES: Record<string, unknown> = { guns, hardware, watches, audio, keyboards }

/** The built-in files checked and joined; a bad file, or a category id in two markets, stops the import naming it. */
export function builtinDictionary(files: Record<string, unknown>): Dictionary {
  const out: Dictionary = { aliases: [], categories: [] }
  const marketOf = new Map<string, string>()
  for (const [name, file] of Object.entries(files)) {
    const { market, about, ...rest } = (file ?? {}) as Record<string, unknown>
    if (market !== name || typeof about !== 'string') throw new Error(`dictionary/${name}.json: needs "market": "${name}" and an "about" text`)
    const checked = checkDictionary(rest)
    if (!checked.ok) throw new Error(`dictionary/${name}.json: ${checked.error}`)
    for (const c of checked.dictionary.categories) {
      const other = marketOf.get(c.id)
      if (other) throw new Error(`dictionary/${name}.json: category "${c.id}" is already in dictionary/${other}.json`)
      marketOf.set(c.id, name)
    }
    out.aliases.push(...checked.dictionary.aliases)
    out.categories.push(...checked.dictionary.categories)
  }
  return out
}

/** The built-in dictionary (dictionary/*.json), as data; `BUILTIN` is its compiled form. */
export const BUILTIN_DICTIONARY: Dictionary = builtinDictionary(BUILTIN_FILES)
export const BUILTIN: CompiledDictionary = compileDictionary(BUILTIN_DICTIONARY)
