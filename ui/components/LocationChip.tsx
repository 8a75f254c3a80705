// Where the seller is: the title's location tag as written ("USA-TX", "San Juan, PR"), read on the server by the
// title grammar (src/matching/title-grammar.ts). Shown on match cards and live-feed post cards; nothing without one.
export function LocationChip({ location }: { location?: string | null }) {
  if (!location) return null
  return (
    <span className="location-chip" data-testid="location-chip" title="Location from the post's title">
      <span className="visually-hidden">Location: </span>
      {location}
    </span>
  )
}
