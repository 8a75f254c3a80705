// The one percentile of Dibs (admin charts and cards, alert latency stages): nearest rank.

/**
 * Nearest-rank percentile (p in 0..100) of `values` in any order: the smallest value with at least
 * p % of the values at or below it; null when there are none. `values` is not changed.
 */
export function percentile(values: readonly number[], p: number): number | null {
  if (values.length === 0) return null
  const sorted = [...values].sort((a, b) => a - b)
  const rank = Math.ceil((p / 100) * sorted.length)
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!
}
