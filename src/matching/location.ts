// Where a seller is, for `loc:` (issue 25 §5). A post's location is the title's first location tag as
// title-grammar.ts reads it ("USA-TX", "US-CA", "CAN-ON", "EU-DE", "UK", "TX", "San Juan, PR"); a term says
// `loc:TX`, `loc:US`, `loc:"US-CA"`, `loc:CAN`, `loc:texas`. Both are read into place keys with the table of
// locations.json (data, not code): a country ("US", "CA", "GB", "DE"), a region of a country ("US-TX", "CA-ON",
// "AU-NSW") and the groups the country is in ("EU"). A post matches `loc:X` when X's key is one of the post's.
//
// One rule decides a code written alone, on both sides: a US state first, then a Canadian province, then a
// country or group. So "CA" alone is California (r/hardwareswap writes [USA-CA]; Canada is "CAN" or "CA-ON"),
// "DE" alone is Delaware (Germany: "GER", "DEU" or "EU-DE"), "NL" alone Newfoundland and Labrador (the
// Netherlands: "NLD"). In "XX-YY" the first part is always a country ("CA-ON" is Ontario, Canada) or a group
// ("EU-DE" is Germany). Pure; bundled into the browser with parse.ts.

import TABLE from './locations.json'

type Country = { code: string; name: string; names: string[]; regions?: Record<string, string>; groups?: string[] }
type Group = { code: string; name: string; names: string[] }

const COUNTRIES = TABLE.countries as Country[]
const GROUPS = TABLE.groups as Group[]
/** Countries whose regions a bare code may name, in this order. */
const BARE_REGIONS = ['US', 'CA']

/** Upper-case name or code → country / group, and full names (lower case, single spaces) → place key. */
const COUNTRY_BY_NAME = new Map<string, Country>()
const GROUP_BY_NAME = new Map<string, Group>()
const BY_FULL_NAME = new Map<string, string>()
const BY_CODE = new Map<string, Country>()
for (const c of COUNTRIES) {
  // regions are looked up by codes read from titles and terms: no prototype behind them ("constructor" is no region)
  if (c.regions) c.regions = Object.assign(Object.create(null) as Record<string, string>, c.regions)
  BY_CODE.set(c.code, c)
  for (const n of c.names) COUNTRY_BY_NAME.set(n, c)
  BY_FULL_NAME.set(c.name.toLowerCase(), c.code)
  for (const [r, name] of Object.entries(c.regions ?? {})) BY_FULL_NAME.set(name.toLowerCase(), `${c.code}-${r}`)
}
for (const g of GROUPS) {
  for (const n of g.names) GROUP_BY_NAME.set(n, g)
  BY_FULL_NAME.set(g.name.toLowerCase(), g.code)
}

/** A code written alone: a US state, a Canadian province, then a country or a group (the header's rule). */
function bareKey(code: string): string | null {
  for (const cc of BARE_REGIONS) if (BY_CODE.get(cc)?.regions?.[code] !== undefined) return `${cc}-${code}`
  return COUNTRY_BY_NAME.get(code)?.code ?? GROUP_BY_NAME.get(code)?.code ?? null
}

/** The keys of a country key: itself and its groups. */
function countryKeys(code: string): string[] {
  return [code, ...(BY_CODE.get(code)?.groups ?? [])]
}

/** The keys a place key stands for: a region adds its country (and groups), a country its groups. */
function keysOf(key: string): string[] {
  const dash = key.indexOf('-')
  return dash < 0 ? countryKeys(key) : [key, ...countryKeys(key.slice(0, dash))]
}

const PAIR = /^([A-Z]{2,3})\s*-\s*([A-Z]{2,4})$/
const CITY = /,\s*([A-Za-z]{2,3})$/

/** "XX-YY": a country (or group) and a region (or, after a group, a country); null when the first part is neither. */
function pairKey(country: string, region: string): { key: string } | { error: 'country' | 'region' } {
  const c = COUNTRY_BY_NAME.get(country)
  if (c) {
    if (c.regions && c.regions[region] === undefined) return { error: 'region' }
    return { key: `${c.code}-${region}` }
  }
  const g = GROUP_BY_NAME.get(country)
  if (g) {
    const member = COUNTRY_BY_NAME.get(region)
    return { key: member?.groups?.includes(g.code) ? member.code : g.code }
  }
  return { error: 'country' }
}

/**
 * The place keys of a post's location text ("USA-TX" → US-TX, US; "EU-DE" → DE, EU; "San Juan, PR" → US-PR, US;
 * "TX" → US-TX, US); [] when there is none or the table does not know it.
 */
export function placeKeys(location: string | null | undefined): string[] {
  if (!location) return []
  const text = location.trim()
  const city = CITY.exec(text)
  const code = (city ? city[1]! : text).toUpperCase()
  const pair = city ? null : PAIR.exec(code)
  if (pair) {
    const r = pairKey(pair[1]!, pair[2]!)
    // a region the table does not list ("USA-XX") still says the country
    if ('error' in r) return r.error === 'region' ? countryKeys(COUNTRY_BY_NAME.get(pair[1]!)!.code) : []
    return keysOf(r.key)
  }
  const key = bareKey(code)
  return key === null ? [] : keysOf(key)
}

export type PlaceResult = { ok: true; key: string } | { ok: false; error: string }

export const LOCATION_HELP =
  'write a US state or Canadian province (loc:TX, loc:ON), a country (loc:US, loc:CAN, loc:UK) or both (loc:"US-CA"); loc:CA is California, Canada is loc:CAN'

/** A `loc:` value as the user wrote it ("tx", "us-ca", "texas", "new york") → its place key, or a message. */
export function parsePlace(value: string): PlaceResult {
  const text = value.trim().replace(/\s+/g, ' ')
  if (text === '') return { ok: false, error: `A location needs a value: ${LOCATION_HELP}` }
  if (text.endsWith('*')) return { ok: false, error: `A location is a code, not a prefix: write loc:${text.replace(/\*+$/, '').toUpperCase() || 'TX'}` }
  const full = BY_FULL_NAME.get(text.toLowerCase())
  if (full !== undefined) return { ok: true, key: full }
  const code = text.toUpperCase()
  const pair = PAIR.exec(code)
  if (pair) {
    const r = pairKey(pair[1]!, pair[2]!)
    if ('key' in r) return { ok: true, key: r.key }
    const c = COUNTRY_BY_NAME.get(pair[1]!)
    if (r.error === 'region' && c) return { ok: false, error: `"${pair[2]}" is not a state or province of ${c.name} in loc:"${code}": ${LOCATION_HELP}` }
    return { ok: false, error: `Unknown country "${pair[1]}" in loc:"${code}": ${LOCATION_HELP}` }
  }
  const key = /^[A-Z]{2,3}$/.test(code) ? bareKey(code) : null
  if (key !== null) return { ok: true, key }
  return { ok: false, error: `Unknown location "${text}" in loc:${text.includes(' ') ? `"${text}"` : text}: ${LOCATION_HELP}` }
}

/** A place key as the term language writes it, unambiguous ("USA-TX", "CAN", "CAN-ON", "UK", "EU"). */
export function placeCode(key: string): string {
  const dash = key.indexOf('-')
  const country = dash < 0 ? key : key.slice(0, dash)
  const written = BY_CODE.get(country)?.names[0] ?? GROUP_BY_NAME.get(country)?.names[0] ?? country
  return dash < 0 ? written : `${written}-${key.slice(dash + 1)}`
}

/** A place key in words ("Texas", "Canada", "Ontario, Canada", "European Union"). */
export function placeName(key: string): string {
  const dash = key.indexOf('-')
  if (dash < 0) return BY_CODE.get(key)?.name ?? GROUPS.find((g) => g.code === key)?.name ?? key
  const c = BY_CODE.get(key.slice(0, dash))
  const region = c?.regions?.[key.slice(dash + 1)]
  if (!c) return key
  if (region === undefined) return `${key.slice(dash + 1)}, ${c.name}`
  return c.code === 'US' ? region : `${region}, ${c.name}`
}
