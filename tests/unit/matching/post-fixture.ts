// Hand-labelled prepared posts for the term side's tests: each part of the text says its item
// segment, side, accessory-for mark and prices, so the term-side rules are tested apart from the
// post side's reading of listings (prepare.ts has its own tests).
import { canonical, findCategories } from '../../../src/matching/dictionary'
import { placeKeys } from '../../../src/matching/location'
import { normalize } from '../../../src/matching/normalize'
import type { PreparedPost, Price } from '../../../src/matching/post-model'

export type Part = {
  text: string
  /** item segment (0: shared context) */
  seg?: number
  side?: 'have' | 'want'
  /** an accessory-for mention ("holster for glock 19") */
  fits?: boolean
  /** other marks of item-marks.ts (MARK_REPLICA, MARK_SOLD, MARK_EXTRA; bits, added to `fits`) */
  mark?: number
  /** prices of this part's segment: a number is an item total */
  prices?: (number | Price)[]
  /** in the body (after the title) */
  body?: boolean
}

export function fixture(
  parts: Part[],
  opts: { author?: string; flair?: string; trades?: number | null; ageDays?: number | null; karma?: number | null; location?: string } = {},
): PreparedPost {
  const tokens: string[] = []
  const seg: number[] = []
  const fits: number[] = []
  const side: number[] = []
  const cats: { token: string; pos: number }[] = []
  let bodyStart = -1
  const maxSeg = Math.max(0, ...parts.map((p) => p.seg ?? 0))
  const segments = Array.from({ length: maxSeg + 1 }, (_, id) => ({
    id,
    side: null as 'have' | 'want' | null,
    prices: [] as Price[],
    ranges: [] as [number, number][],
  }))
  for (const part of parts) {
    if (part.body && bodyStart < 0) {
      tokens.push('')
      seg.push(0)
      fits.push(0)
      side.push(0)
      bodyStart = tokens.length
    }
    const toks = canonical(normalize(part.text))
    const from = tokens.length
    for (const c of findCategories(toks)) cats.push({ token: c.token, pos: from + c.pos })
    for (const t of toks) {
      tokens.push(t)
      seg.push(part.seg ?? 0)
      fits.push((part.fits ? 1 : 0) | (part.mark ?? 0))
      side.push(part.side === 'have' ? 1 : part.side === 'want' ? 2 : 0)
    }
    const s = segments[part.seg ?? 0]!
    s.ranges.push([from, tokens.length])
    if (part.side) s.side = part.side
    for (const p of part.prices ?? []) s.prices.push(typeof p === 'number' ? { amount: p, role: 'item', unit: 'total' } : p)
  }
  const positions = new Map<string, number[]>()
  const distinct: string[] = []
  const put = (t: string, i: number) => {
    const list = positions.get(t)
    if (list) list.push(i)
    else {
      positions.set(t, [i])
      distinct.push(t)
    }
  }
  tokens.forEach((t, i) => t !== '' && put(t, i))
  for (const c of cats) put(c.token, c.pos)
  for (const list of positions.values()) list.sort((a, b) => a - b)
  return {
    tokens,
    tokenSet: new Set(distinct),
    distinct,
    positions,
    seg: Uint16Array.from(seg),
    fits: Uint8Array.from(fits),
    segments,
    sided: parts.some((p) => p.side !== undefined),
    side: Uint8Array.from(side),
    prices: segments.flatMap((s) => s.prices.filter((p) => p.role === 'item' && p.unit === 'total').map((p) => p.amount)),
    author: (opts.author ?? '').toLowerCase(),
    flair: opts.flair ? normalize(opts.flair) : [],
    trades: opts.trades ?? null,
    ageDays: opts.ageDays ?? null,
    karma: opts.karma ?? null,
    location: opts.location ?? null,
    places: placeKeys(opts.location),
    bodyStart: bodyStart < 0 ? tokens.length : bodyStart,
  }
}
