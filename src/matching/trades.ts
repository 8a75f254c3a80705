// Confirmed trades from a user flair (the `trades>=N` filter and the seller's trust line). A leaf: no imports, so
// the web app can read flairs without the matcher and its dictionary in its bundle.
const TRADES = [/(\d{1,6})\s*(?:confirmed\s+)?(?:trades?|swaps?|transactions?)\b/i, /(?:trades?|swaps?|transactions?)\s*[:=]?\s*(\d{1,6})\b/i]

/** Confirmed trades from a user flair: "Trades: 12", "Confirmed trades: 12", "12 trades", "Swaps: 3". */
export function readTrades(flair: string | null | undefined): number | null {
  if (!flair) return null
  const text = flair.slice(0, 200)
  for (const re of TRADES) {
    const m = re.exec(text)
    if (m) return Number(m[1])
  }
  return null
}
