// The listing line of a match card (src/forums/reposts.ts): 'Reposted · first posted Nov 20 ·
// reposted Nov 22', 'Price drop: $450 → $400' and the price history '$450 (Nov 20) → $400 (Nov 22)'.
// Nothing when the match's post is the first post of its listing.
import { historyText, priceDropText } from '../../src/forums/price-history'
import { shortDate } from '../lib/dates'
import type { Match } from '../lib/matches'

export function ListingHistory({ match }: { match: Match }) {
  const { repost, priceDrop, priceHistory } = match
  if (!repost && !priceDrop) return null
  const later = repost ? repost.postedAt.slice(1) : []
  return (
    <p className="listing-line" data-testid="listing-line">
      {repost ? (
        <span>
          <span className="badge repost-badge">Reposted</span> · first posted <time dateTime={repost.firstSeenAt}>{shortDate(repost.firstSeenAt)}</time>
          {later.length > 0 ? ` · reposted ${later.map(shortDate).join(', ')}` : null}
        </span>
      ) : null}
      {priceDrop ? <strong className="price-drop">{priceDropText(priceDrop)}</strong> : null}
      {priceHistory && priceHistory.length > 1 ? <span className="price-history">Price history: {historyText(priceHistory, shortDate)}</span> : null}
    </p>
  )
}
