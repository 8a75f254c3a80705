// Aliases and categories: the matcher's dictionary, applied to BOTH sides (terms and posts) so they
// always agree. Data first (BUILTIN_DICTIONARY), then the compiled lookups.
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
// the category ("#" in a member stands for any number). A post carries the category token at the
// position of each member's first token; a term naming the category asks for "the name as words OR
// the category token" (the term side compiles that from `categoryNames`).

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
}
export type Dictionary = { aliases: AliasRow[]; categories: CategoryDef[] }

const GLOCKS = ['17', '19', '20', '21', '22', '23', '26', '27', '29', '30', '34', '35', '40', '42', '43', '44', '45', '47', '48', '49']

/**
 * The built-in dictionary. Each alias row says why its canonical form was chosen:
 * compounds are joined (sellers write both), abbreviations are spelled out, calibres lose the dot
 * (the form without punctuation is what both "5.56" and "556" can reach).
 */
export const BUILTIN_DICTIONARY: Dictionary = {
  aliases: [
    // compound brand spellings → the joined word
    { from: 'eo tech', to: 'eotech' },
    { from: 'sure fire', to: 'surefire' },
    { from: 'g shock', to: 'gshock' },
    { from: 'night force', to: 'nightforce' },
    { from: 'nf', to: 'nightforce' },
    { from: 'nightvision', to: 'night vision' },
    { from: 'p mag', to: 'pmag' },
    { from: 'holo sun', to: 'holosun' },
    { from: 'aim point', to: 'aimpoint' },
    { from: 'delta point', to: 'deltapoint' },
    { from: 'trij', to: 'trijicon' },
    // watches: the Omega × Swatch collaboration is its own product (made by Swatch), "Speedy" is the Speedmaster,
    // the "Casioak" is a G-Shock GA-2100
    { from: 'swatch x omega', to: 'moonswatch' },
    { from: 'omega x swatch', to: 'moonswatch' },
    { from: 'omega swatch', to: 'moonswatch' },
    { from: 'swatch omega', to: 'moonswatch' },
    { from: 'moon swatch', to: 'moonswatch' },
    { from: 'speedy', to: 'speedmaster' },
    { from: 'casioak', to: 'gshock ga 2100' },
    // computer parts
    { from: 'mobo', to: 'motherboard' },
    { from: 'mobos', to: 'motherboard' },
    // Brands written with "&": the abbreviation and the "and" spelling → the two names, and " & " between
    // them joins ("Schmidt & Bender PM II" is one item). Schmidt & Bender: "S&B", "S and B" (S&B ammo —
    // Sellier & Bellot — reads the same; documented)
    { from: 's&b', to: 'schmidt bender' },
    { from: 's b', to: 'schmidt bender' },
    { from: 's and b', to: 'schmidt bender' },
    { from: 'schmidt and bender', to: 'schmidt bender' },
    { from: 'schmidt und bender', to: 'schmidt bender' },
    // Smith & Wesson: "S&W", "Smith and Wesson" (".40 S&W" is the calibre, below)
    { from: 's&w', to: 'smith wesson' },
    { from: 'smith and wesson', to: 'smith wesson' },
    // Heckler & Koch: "H&K", "HK" (HK416, HK VP9), "Heckler and Koch"
    { from: 'h&k', to: 'heckler koch' },
    { from: 'hk', to: 'heckler koch' },
    { from: 'heckler and koch', to: 'heckler koch' },
    // Brügger & Thomet: "B&T", "Bruegger", "Brügger and Thomet" (accents fold: Brügger is brugger)
    { from: 'b&t', to: 'brugger thomet' },
    { from: 'bruegger', to: 'brugger' },
    { from: 'brugger and thomet', to: 'brugger thomet' },
    // Sig Sauer: "sig" is what everyone writes; "sauer" after it adds nothing
    { from: 'sig sauer', to: 'sig' },
    { from: 'sigsauer', to: 'sig' },
    // Glock models: "G19", "G-19" → glock 19; "Glock G19" → glock 19 (not glock glock 19)
    ...GLOCKS.flatMap((n) => [
      { from: `glock g ${n}`, to: `glock ${n}` },
      { from: `g ${n}`, to: `glock ${n}` },
    ]),
    // EOTech magnifiers share names with Glocks: after "eotech" the row keeps "g 43" as it is (this
    // longer row wins over "g 43" → glock 43, so "EOTech G43" never reads as a Glock 43)
    { from: 'eotech g 43', to: 'eotech g 43' },
    { from: 'eotech g 45', to: 'eotech g 45' },
    // calibres: the dot goes ("5.56" = "556", "7.62x39" = "762x39", "6.5 Creedmoor" = "65 creedmoor")
    { from: '5 56', to: '556' },
    { from: '7 62', to: '762' },
    { from: '5 45', to: '545' },
    { from: '223 rem', to: '223' },
    { from: '6 5 creedmoor', to: '65 creedmoor' },
    { from: '6 5 cm', to: '65 creedmoor' },
    { from: '65 cm', to: '65 creedmoor' },
    { from: '6 5 prc', to: '65 prc' },
    { from: '6 5 grendel', to: '65 grendel' },
    { from: '300 blk', to: '300 blackout' },
    { from: '300 aac blackout', to: '300 blackout' },
    { from: '300 aac', to: '300 blackout' },
    { from: '40 s w', to: '40 sw' },
    { from: '40 s&w', to: '40 sw' },
    { from: '9 x 19', to: '9 mm' },
    { from: '9 mm luger', to: '9 mm' },
  ],
  categories: [
    {
      id: 'red-dot',
      names: ['red dot', 'reflex', 'reflex sight', 'red dot sight', 'dot sight', 'micro dot', 'mrds'],
      // "rds" in a post is nearly always "rounds" ("1000 rds"): only a term reads it as red dot sight
      termNames: ['rds'],
      members: [
        'rmr',
        'rmrcc',
        'rmr cc',
        'sro',
        'rcr',
        '507 c',
        '507 k',
        '508 t',
        '407 c',
        '407 k',
        '403 b',
        '403 c',
        '510 c',
        '512 c',
        'scs',
        'eps',
        'aems',
        'dcg',
        't 1',
        't 2',
        'h 1',
        'h 2',
        'micro t 1',
        'micro t 2',
        'acro',
        'romeo zero',
        'romeo 1',
        'romeo 2',
        'romeo 3',
        'romeo 4',
        'romeo 5',
        'romeo 7',
        'romeo x',
        'deltapoint',
        'dpp',
        'mro',
        'comp m 2',
        'comp m 4',
        'comp m 5',
        'aimpoint pro',
        'patrol rifle optic',
        'duty rs',
        'venom',
        'viper red dot',
        'sparc',
        'crossfire red dot',
        '509 t',
        'hs 503',
        '503 cu',
        '503 r',
        'rmsc',
        'rms c',
        'shield rms',
        'kingslayer',
        'swampfox sentinel',
        'swampfox justice',
        'swampfox liberty',
        'pa micro dot',
        'slx md',
      ],
    },
    {
      // EOTech sights are holographic, not red dots (a buyer of a red dot means a reflex / tube sight)
      id: 'holographic',
      names: ['holographic', 'holographic sight', 'holo sight', 'hws'],
      members: ['exps 2', 'exps 3', 'xps 2', 'xps 3', 'eotech 512', 'eotech 518', 'eotech 552', 'eotech 558', 'eotech hhs', 'vudu holographic'],
    },
    {
      id: 'lpvo',
      names: ['lpvo', 'low power variable', 'low power variable optic'],
      members: [
        '1 4 x',
        '1 5 x',
        '1 6 x',
        '1 8 x',
        '1 10 x',
        'vudu',
        'razor gen 2 e',
        'razor gen ii e',
        'razor hd gen 2 e',
        'razor hd gen ii e',
        'razor gen 3',
        'razor gen iii',
        'razor hd gen 3',
        'razor hd gen iii',
        'atacr 1 8',
        'nx 8 1 8',
        'tango 6 t',
        'tango msr 1',
        'short dot',
        'shortdot',
        'vcog',
        'accupower 1',
        'strike eagle 1',
        'credo hx 1',
        'mk 6 1',
      ],
    },
    {
      id: 'prism',
      names: ['prism', 'prism scope', 'prism sight'],
      members: ['acog', 'ta 31', 'ta 01', 'ta 02', 'ta 11', 'ta 33', 'ta 44', 'ta 45', 'ta 47', 'ta 50', 'ta 51', 'spitfire', 'slx 1 x', 'slx 3 x', 'slx 5 x'],
    },
    {
      id: 'acog',
      names: ['acog'],
      members: ['ta 31', 'ta 01', 'ta 02', 'ta 11', 'ta 33', 'ta 44', 'ta 45', 'ta 47', 'ta 50', 'ta 51'],
    },
    {
      id: 'magnifier',
      names: ['magnifier'],
      members: [
        'g 33',
        'eotech g 43',
        'eotech g 45',
        '3 xmag',
        '5 xmag',
        '6 xmag',
        'juliet',
        'hm 3 x',
        '3 x mag',
        '5 x mag',
        '6 x mag',
        'aimpoint 3 x',
        'aimpoint 6 x',
        'ets 3 x',
      ],
    },
    {
      id: 'nods',
      names: ['nods', 'nod', 'night vision', 'nvg', 'nvd', 'night vision goggle'],
      termNames: ['nv'],
      members: [
        'pvs 7',
        'pvs 14',
        'pvs 15',
        'pvs 31',
        'ps 31',
        'mum 14',
        'bnvd',
        'gpnvg',
        'mumbo',
        'dtnvs',
        'rnvg',
        'anvis',
        'mod 3 bravo',
        'pvs 18',
        'pvs 21',
      ],
    },
    {
      id: 'thermal',
      names: ['thermal', 'thermal scope', 'thermal monocular'],
      members: ['flir', 'pulsar', 'infiray', 'ps 28', 'hd 38', 'trail 2', 'thermion', 'helion', 'axion', 'reap ir', 'clip ir'],
    },
    {
      id: 'suppressor',
      names: ['suppressor', 'silencer', 'supp'],
      termNames: ['can'],
      members: [
        'rugged obsidian',
        'obsidian 9',
        'obsidian 45',
        'rugged surge',
        'rugged radiant',
        'surefire socom',
        'socom 556',
        'socom 762',
        'socom rc 2',
        'surefire rc 2',
        'omega 36',
        'omega 300',
        'omega 9 k',
        'sandman',
        'saker',
        'hybrid 46',
        'nomad',
        'srd 556',
        'srd 762',
        'srd 9',
        'sig srd',
        'dead air',
        'wolfman',
        'osprey',
        'harvester',
        'specwar',
        'cgs hyperion',
        'griffin recon',
        'flow 556',
        'kac qdc',
        'scar 556',
        'turbo 556',
        'liberty mystic',
        'lunar 9',
      ],
    },
    {
      id: 'weapon-light',
      names: ['weapon light', 'wml', 'pistol light', 'rifle light'],
      termNames: ['light'],
      members: [
        'x 300',
        'x300',
        'x 300 u',
        'x 400',
        'tlr 1',
        'tlr 7',
        'tlr 8',
        'tlr 9',
        'scout light',
        'm 600',
        'm 300',
        'm 640',
        'm 340',
        'modlite',
        'pl 350',
        'pl 150',
        'xc 1',
        'xc 2',
        'unity axon',
      ],
    },
    {
      id: 'holster',
      names: ['holster', 'iwb', 'owb', 'aiwb'],
      members: ['safariland', 'tier 1 concealed', 'phlster', 'jmck', 'vedder', 'tenicor', 'dark star gear', 'alien gear', 'black point', 'blackhawk serpa'],
    },
    {
      id: 'plate-carrier',
      names: ['plate carrier'],
      termNames: ['pc', 'carrier'],
      members: ['fcpc', 'spc', 'apc', 'jpc', 'avs', 'lv 119', 'ferro slickster', 'slickster', 'sentry plate carrier'],
    },
    {
      id: 'gpu',
      names: ['gpu', 'graphics card', 'video card', 'graphic card'],
      // model numbers sellers write without "RTX" (not 1060/1070/1080: screen resolutions and the like)
      members: [
        ...['rtx #', 'gtx #', 'rx #', 'radeon', 'geforce', 'quadro', 'arc a #', 'titan rtx', 'titan x'],
        ...['2060', '2070', '2080', '3050', '3060', '3070', '3080', '3090', '4060', '4070', '4080', '4090', '5070', '5080', '5090'],
      ],
    },
    {
      id: 'cpu',
      names: ['cpu', 'processor'],
      members: ['i 3 #', 'i 5 #', 'i 7 #', 'i 9 #', 'core i 3', 'core i 5', 'core i 7', 'core i 9', 'ryzen', 'threadripper', 'xeon', 'athlon', 'pentium'],
    },
    {
      id: 'laptop',
      names: ['laptop', 'notebook'],
      members: [
        ...['macbook', 'thinkpad', 'chromebook', 'zenbook', 'vivobook', 'ideapad', 'zephyrus', 'razer blade', 'surface laptop', 'surface book'],
        ...['asus g 14', 'asus g 15', 'rog strix g', 'legion 5', 'legion 7', 'yoga', 'dell xps', 'latitude', 'inspiron', 'spectre x 360', 'envy x 360'],
        ...['alienware m', 'alienware x', 'framework laptop', 'asus ux #'],
      ],
    },
    {
      id: 'motherboard',
      names: ['motherboard'],
      // chipsets name boards: "MSI B550 Tomahawk", "ASUS X570-E"
      members: ['b 450', 'b 550', 'b 650', 'x 470', 'x 570', 'x 670', 'z 390', 'z 490', 'z 590', 'z 690', 'z 790', 'b 460', 'b 560', 'b 660', 'b 760'],
    },
    {
      id: 'aio',
      names: ['aio', 'aio cooler', 'liquid cooler'],
      members: ['masterliquid', 'kraken', 'liquid freezer', 'galahad', 'h 100 i', 'h 115 i', 'h 150 i', 'h 170 i', 'ml 240', 'ml 360', 'ek aio'],
    },
    {
      id: 'pmag',
      names: ['pmag'],
      members: [
        'magpul 10 rd',
        'magpul 20 rd',
        'magpul 30 rd',
        'magpul 40 rd',
        'magpul 30 round',
        'magpul 20 round',
        'magpul 40 round',
        'magpul gen m 3',
        'magpul mag',
      ],
    },
  ],
}

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
}

const ANY_NUMBER = '#'

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
  const partial: CompiledDictionary = { aliasByFirst, memberByFirst: new Map(), memberAnyNumber: [], names: [], ampersandNames }
  for (const c of d.categories) {
    const token = categoryToken(c.id)
    for (const text of [...c.names, ...c.members]) {
      // members go through the aliases too, so "5.56" and "556" members are the same row
      const seq = canonical(
        text.split(/\s+/).flatMap((w) => (w === ANY_NUMBER ? [w] : normalize(w))),
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
    for (const name of [...c.names, ...(c.termNames ?? [])]) {
      const words = canonical(normalize(name), partial)
      if (words.length > 0) partial.names.push({ id: c.id, token, words })
    }
  }
  for (const list of partial.memberByFirst.values()) list.sort((a, b) => b.seq.length - a.seq.length)
  return partial
}

export const BUILTIN: CompiledDictionary = compileDictionary(BUILTIN_DICTIONARY)

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
    if (seq[k] === ANY_NUMBER ? t === '' || !isNumber(t) : t !== seq[k]) return false
  }
  return true
}

/** Adds the rows of `extra` (an admin's file) to `base`; a category with a known id gains names and members. */
export function mergeDictionary(base: Dictionary, extra: Dictionary): Dictionary {
  const categories = base.categories.map((c) => ({ ...c, names: [...c.names], termNames: [...(c.termNames ?? [])], members: [...c.members] }))
  for (const c of extra.categories) {
    const known = categories.find((k) => k.id === c.id)
    if (!known) categories.push({ ...c, termNames: [...(c.termNames ?? [])] })
    else {
      known.names.push(...c.names)
      known.termNames.push(...(c.termNames ?? []))
      known.members.push(...c.members)
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
 * letters/digits with single dashes; names and members are texts (members may use "#" for any number).
 */
export function parseDictionaryJson(text: string): { ok: true; dictionary: Dictionary } | { ok: false; error: string } {
  let data: unknown
  try {
    data = JSON.parse(text)
  } catch (e) {
    return { ok: false, error: `not JSON: ${(e as Error).message}` }
  }
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
    for (const v of [names, termNames, members]) if (typeof v === 'string') return { ok: false, error: v }
    categories.push({ id: cat.id, names: names as string[], termNames: termNames as string[], members: members as string[] })
  }
  return { ok: true, dictionary: { aliases, categories } }
}
