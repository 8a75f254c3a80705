// Presets (issue 25 §4): one choice that sets a source's address, title grammar, categories and labels,
// kept as data in presets.json beside this reader. Pure: `parsePresets` checks the data and returns it
// typed (a `PresetError` names the first bad field); `PRESETS` is the shipped catalog, checked once on
// import. Read by the sources table's input checks (src/sources/store.ts), FORUM_PRESET at first start
// (src/config.ts, `seedSources`), the admin's switch (src/scanner/source-admin.ts) and `dibs sources add --preset`.
//
// A preset feeds one of the spec's two forums (`forum`: the accessories forum with WTS/WTB, or the deals
// forum 'gd') from a subreddit (`kind: reddit`) or a feed whose address the admin completes from
// `urlPattern` (`kind: feed`, "{board}", "{slug}", "{id}" placeholders). `grammar` names the title
// conventions of that market, all read by the one title grammar (src/matching/title-grammar.ts), and the
// table tests that cover them (tests/unit/sources/presets.test.ts):
//   reddit-gun  — [WTS]/[WTB] tags and [State] locations (the spec's forum);
//   reddit-hw   — [USA-XX] [H] … [W] … sides, codes in brackets, r/photomarket's [S]/[B]/[T];
//   classifieds — forum titles: WTS / WTB / WTT / FS / FT / ISO with or without brackets, SOLD, SPF,
//                 Pending, Pls Remove, Closed as states;
//   deals       — deal titles: [Category] or [Store], then item and price; no sides, every post is 'gd'.
// `label` is the forum's name in texts ("Hardwareswap"), `short` its short name (like PRODUCT_NAME: 2–16
// letters or digits), `categories` the names shown for its categories ("HWS WTS", "HWS WTB"; "BAPCS").
// A pair is an accessories preset and a deals preset chosen together; exactly one is the default, and it
// is the spec's pair (r/GunAccessoriesForSale + r/gundeals).
import catalog from './presets.json'

export const PRESET_KINDS = ['reddit', 'feed'] as const
export const PRESET_FORUMS = ['accessories', 'deals'] as const
export const GRAMMARS = ['reddit-hw', 'reddit-gun', 'classifieds', 'deals'] as const
export type PresetKind = (typeof PRESET_KINDS)[number]
export type PresetForum = (typeof PRESET_FORUMS)[number]
export type GrammarName = (typeof GRAMMARS)[number]

type Common = {
  name: string
  title: string
  grammar: GrammarName
  label: string
  short: string
  notes: string
}
type Address = { kind: 'reddit'; subreddit: string } | { kind: 'feed'; urlPattern: string }
type Role = { forum: 'accessories'; categories: { wts: string; wtb: string } } | { forum: 'deals'; categories: { gd: string } }
export type Preset = Common & Address & Role
export type PresetPair = { name: string; title: string; accessories: string; deals: string; default: boolean; notes: string }
/** A pair with its two presets. */
export type PairChoice = { pair: PresetPair; accessories: Preset; deals: Preset }
export type PresetCatalog = { presets: Preset[]; pairs: PresetPair[] }

export class PresetError extends Error {
  constructor(
    readonly field: string,
    problem: string,
  ) {
    super(`presets: ${field} ${problem}`)
    this.name = 'PresetError'
  }
}

const NAME = /^[a-z0-9][a-z0-9-]{1,39}$/
const SUBREDDIT = /^[A-Za-z0-9_]{2,21}$/
const SHORT = /^[A-Za-z0-9]{2,16}$/
const URL_PATTERN = /^https?:\/\/\{board\}\/\S*$/
const DEFAULT_PAIR = { accessories: 'GunAccessoriesForSale', deals: 'gundeals' }

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

function text(o: Record<string, unknown>, key: string, at: string, max = 300, allowEmpty = false): string {
  const v = o[key]
  if (typeof v !== 'string' || v.length > max || (!allowEmpty && v.trim() === ''))
    throw new PresetError(`${at}.${key}`, `must be a text of 1–${max} characters`)
  return v
}

function oneOf<T extends string>(o: Record<string, unknown>, key: string, at: string, values: readonly T[]): T {
  const v = o[key]
  if (!(values as readonly unknown[]).includes(v)) throw new PresetError(`${at}.${key}`, `must be one of ${values.join(', ')}`)
  return v as T
}

function matching(o: Record<string, unknown>, key: string, at: string, re: RegExp, what: string): string {
  const v = text(o, key, at)
  if (!re.test(v)) throw new PresetError(`${at}.${key}`, `must be ${what}`)
  return v
}

function onlyKeys(o: Record<string, unknown>, at: string, keys: string[]): void {
  for (const k of Object.keys(o)) if (!keys.includes(k)) throw new PresetError(`${at}.${k}`, 'is not a preset field')
}

function parsePreset(v: unknown, at: string): Preset {
  if (!isObject(v)) throw new PresetError(at, 'must be an object')
  const kind = oneOf(v, 'kind', at, PRESET_KINDS)
  const forum = oneOf(v, 'forum', at, PRESET_FORUMS)
  onlyKeys(v, at, ['name', 'title', 'kind', 'forum', kind === 'reddit' ? 'subreddit' : 'urlPattern', 'grammar', 'label', 'short', 'categories', 'notes'])
  const common: Common = {
    name: matching(v, 'name', at, NAME, 'lower-case letters, digits and "-" (2–40)'),
    title: text(v, 'title', at, 80),
    grammar: oneOf(v, 'grammar', at, GRAMMARS),
    label: text(v, 'label', at, 40),
    short: matching(v, 'short', at, SHORT, '2–16 letters or digits'),
    notes: text(v, 'notes', at, 600, true),
  }
  if ((forum === 'deals') !== (common.grammar === 'deals'))
    throw new PresetError(`${at}.grammar`, forum === 'deals' ? 'must be deals on the deals forum' : 'cannot be deals on the accessories forum')
  const address: Address =
    kind === 'reddit'
      ? { kind, subreddit: matching(v, 'subreddit', at, SUBREDDIT, 'a subreddit name (letters, digits, _)') }
      : { kind, urlPattern: matching(v, 'urlPattern', at, URL_PATTERN, 'an http(s) address starting "https://{board}/"') }
  const cats = v.categories
  if (!isObject(cats)) throw new PresetError(`${at}.categories`, 'must be an object')
  const catAt = `${at}.categories`
  const role: Role =
    forum === 'accessories'
      ? (onlyKeys(cats, catAt, ['wts', 'wtb']), { forum, categories: { wts: text(cats, 'wts', catAt, 40), wtb: text(cats, 'wtb', catAt, 40) } })
      : (onlyKeys(cats, catAt, ['gd']), { forum, categories: { gd: text(cats, 'gd', catAt, 40) } })
  return { ...common, ...address, ...role }
}

function parsePair(v: unknown, at: string, byName: Map<string, Preset>): PresetPair {
  if (!isObject(v)) throw new PresetError(at, 'must be an object')
  onlyKeys(v, at, ['name', 'title', 'accessories', 'deals', 'default', 'notes'])
  const pair: PresetPair = {
    name: matching(v, 'name', at, NAME, 'lower-case letters, digits and "-" (2–40)'),
    title: text(v, 'title', at, 80),
    accessories: text(v, 'accessories', at, 40),
    deals: text(v, 'deals', at, 40),
    default: v.default === true,
    notes: text(v, 'notes', at, 600, true),
  }
  if (v.default !== undefined && typeof v.default !== 'boolean') throw new PresetError(`${at}.default`, 'must be true or false')
  for (const forum of PRESET_FORUMS) {
    const preset = byName.get(pair[forum])
    if (!preset) throw new PresetError(`${at}.${forum}`, `names no preset ("${pair[forum]}")`)
    if (preset.forum !== forum) throw new PresetError(`${at}.${forum}`, `names a preset of the ${preset.forum} forum ("${preset.name}")`)
  }
  return pair
}

/** The catalog checked: unique names, each preset's address and categories fit its kind and forum, pairs name presets of their forums, one default pair — the spec's. */
export function parsePresets(data: unknown): PresetCatalog {
  if (!isObject(data) || !Array.isArray(data.presets) || !Array.isArray(data.pairs)) throw new PresetError('(root)', 'must be {presets: [...], pairs: [...]}')
  const byName = new Map<string, Preset>()
  data.presets.forEach((v, i) => {
    const p = parsePreset(v, `presets[${i}]`)
    if (byName.has(p.name)) throw new PresetError(`presets[${i}].name`, `repeats "${p.name}"`)
    byName.set(p.name, p)
  })
  const pairs: PresetPair[] = []
  data.pairs.forEach((v, i) => {
    const pair = parsePair(v, `pairs[${i}]`, byName)
    if (pairs.some((q) => q.name === pair.name)) throw new PresetError(`pairs[${i}].name`, `repeats "${pair.name}"`)
    pairs.push(pair)
  })
  const defaults = pairs.filter((p) => p.default)
  if (defaults.length !== 1) throw new PresetError('pairs', `must have exactly one default pair (has ${defaults.length})`)
  const def = defaults[0]!
  const [acc, deals] = [byName.get(def.accessories)!, byName.get(def.deals)!]
  if (acc.kind !== 'reddit' || acc.subreddit !== DEFAULT_PAIR.accessories || deals.kind !== 'reddit' || deals.subreddit !== DEFAULT_PAIR.deals)
    throw new PresetError(`pairs (${def.name})`, `must be the spec's pair: r/${DEFAULT_PAIR.accessories} and r/${DEFAULT_PAIR.deals}`)
  return { presets: [...byName.values()], pairs }
}

/** The shipped catalog (src/sources/presets.json), checked on import. */
export const PRESETS: PresetCatalog = parsePresets(catalog)

/** A preset by name (case-insensitive), or null. */
export function presetByName(name: string, from: PresetCatalog = PRESETS): Preset | null {
  const key = name.trim().toLowerCase()
  return from.presets.find((p) => p.name === key) ?? null
}

/** A pair with its two presets, by name (case-insensitive), or null. */
export function pairByName(name: string, from: PresetCatalog = PRESETS): PairChoice | null {
  const key = name.trim().toLowerCase()
  const pair = from.pairs.find((p) => p.name === key)
  if (!pair) return null
  return { pair, accessories: presetByName(pair.accessories, from)!, deals: presetByName(pair.deals, from)! }
}

/** The default pair (the spec's forums). */
export function defaultPair(from: PresetCatalog = PRESETS): PairChoice {
  return pairByName(from.pairs.find((p) => p.default)!.name, from)!
}

/** A preset's forum name in texts: its subreddit, or its label for a feed (letters and digits). */
export const presetForumName = (p: Preset) => (p.kind === 'reddit' ? p.subreddit : p.label.replace(/[^A-Za-z0-9_]/g, ''))

/** What a pair names in every text: the accessories forum's short name (PRODUCT_NAME), the deals forum's label ('Gundeals' for the spec's pair), both forums' names. */
export function pairLabels(choice: PairChoice): { productName: string; dealsLabel: string; forums: { accessories: string; deals: string } } {
  return {
    productName: choice.accessories.short,
    dealsLabel: choice.pair.default ? 'Gundeals' : choice.deals.label,
    forums: { accessories: presetForumName(choice.accessories), deals: presetForumName(choice.deals) },
  }
}
