// A listing's price history and its texts. Pure and import-free: the match card (ui/) and the
// alert templates (src/notify/) both use it, so 'Price drop: $450 → $400' reads the same everywhere.

export type PricePoint = { price: number; at: string }
export type PriceDrop = { from: number; to: number }

const WHOLE = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 })
const CENTS = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })

/** A listing price in dollars — "$450", "$1,200", "$19.99": cents only when the amount is not whole (plans.ts formatPrice reads cents). */
export function formatDollars(amount: number): string {
  return `$${Number.isInteger(amount) ? WHOLE.format(amount) : CENTS.format(amount)}`
}

/** The alert text of a price drop: 'Price drop: $450 → $400'. */
export function priceDropText(drop: PriceDrop): string {
  return `Price drop: ${formatDollars(drop.from)} → ${formatDollars(drop.to)}`
}

/**
 * The price changes of a listing from its posts (oldest first): the first price, then each post
 * whose price differs from the one before. Posts without a title price change nothing.
 */
export function priceHistory(posts: { price: number | null; at: string }[]): PricePoint[] {
  const out: PricePoint[] = []
  for (const p of posts) {
    if (p.price === null) continue
    if (out.at(-1)?.price !== p.price) out.push({ price: p.price, at: p.at })
  }
  return out
}

/** The drop a history ends with (its last change was down), else null. */
export function lastDrop(history: PricePoint[]): PriceDrop | null {
  const to = history.at(-1)
  const from = history.at(-2)
  return to && from && to.price < from.price ? { from: from.price, to: to.price } : null
}

/** '$450 (Nov 20) → $400 (Nov 22)', the dates written by `date`. */
export function historyText(history: PricePoint[], date: (iso: string) => string): string {
  return history.map((p) => `${formatDollars(p.price)} (${date(p.at)})`).join(' → ')
}
