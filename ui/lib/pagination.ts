// Live-feed pagination (spec §2): 5 or fewer pages show every number; otherwise the first, the
// last and the neighbours of the current page, with an ellipsis for each gap.
export type PageItem = number | 'ellipsis'

export const FEED_PAGE_SIZE = 10

export function pageCount(total: number, pageSize = FEED_PAGE_SIZE): number {
  return Math.max(1, Math.ceil(Math.max(0, total) / pageSize))
}

/** Pages are 1-based. */
export function pageItems(current: number, pages: number): PageItem[] {
  if (pages <= 5) return Array.from({ length: Math.max(pages, 1) }, (_, i) => i + 1)
  const shown = new Set([1, pages, current - 1, current, current + 1].filter((p) => p >= 1 && p <= pages))
  const sorted = [...shown].sort((a, b) => a - b)
  const out: PageItem[] = []
  for (const p of sorted) {
    const prev = out[out.length - 1]
    if (typeof prev === 'number' && p - prev > 1) out.push('ellipsis')
    out.push(p)
  }
  return out
}
