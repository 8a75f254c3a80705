// The real posts of other marketplaces (tests/fixtures/markets/, README there): each market's recorded posts and
// its labels, read into the corpus types so bench/market-quality.ts scores them the way bench/quality.ts does.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { QualityPost, QualityTerm } from './types'

export const MARKETS_DIR = join(import.meta.dir, '..', 'fixtures', 'markets')

export type MarketSource = { repo: string; path: string; commit?: string; note?: string }
/** `also`: further recordings of the same market, each naming the ids of the posts copied from it */
export type MarketPostFile = {
  market: string
  source: MarketSource
  also?: (MarketSource & { ids: string[] })[]
  posts: { id: string; title: string; body?: string; flair?: string }[]
}
export type MarketTermLabel = QualityTerm & { want: string[] }
export type MarketLabelFile = { market: string; wtb: string[]; notes: string[]; terms: MarketTermLabel[] }
export type Market = { name: string; file: string; source: MarketSource; posts: QualityPost[]; terms: QualityTerm[] }

/** The raw files of every market: `<name>.json` and its `<name>.labels.json`. */
export function marketFiles(): { name: string; posts: MarketPostFile; labels: MarketLabelFile }[] {
  return readdirSync(MARKETS_DIR)
    .filter((f) => f.endsWith('.json') && !f.endsWith('.labels.json'))
    .sort()
    .map((f) => {
      const name = f.slice(0, -'.json'.length)
      const read = (file: string) => JSON.parse(readFileSync(join(MARKETS_DIR, file), 'utf8'))
      return { name, posts: read(f) as MarketPostFile, labels: read(`${name}.labels.json`) as MarketLabelFile }
    })
}

/** Every market as corpus posts (category from the labels' `wtb` list, `want` from the terms' lists) and terms. */
export function loadMarkets(): Market[] {
  return marketFiles().map(({ name, posts, labels }) => {
    const wtb = new Set(labels.wtb)
    const wants = new Map<string, string[]>()
    for (const t of labels.terms) for (const id of t.want) wants.set(id, [...(wants.get(id) ?? []), t.id])
    return {
      name: posts.market,
      file: name,
      source: posts.source,
      posts: posts.posts.map((p) => ({
        id: p.id,
        category: wtb.has(p.id) ? 'wtb' : 'wts',
        title: p.title,
        body: p.body ?? null,
        flair: p.flair ?? null,
        author: null,
        authorFlair: null,
        want: wants.get(p.id) ?? [],
      })),
      terms: labels.terms.map(({ id, category, text, kind }) => ({ id, category, text, kind })),
    }
  })
}
