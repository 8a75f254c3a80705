// One match: title linking out (opening it marks the match read), matched words highlighted,
// matched term(s), forum badge, author, the seller's location (LocationChip), the post's source (SourceChip), post time ('MMM d, h:mm a' + relative); reposts and price drops (ListingHistory).
import { useSignals } from '@preact/signals-react/runtime'
import { cardTime, formatDate, timeAgo } from '../lib/dates'
import { matchedTermLabel, type Match } from '../lib/matches'
import { config } from '../state'
import { PostStateBadge, stateClass } from './PostStateBadge'
import { ListingHistory } from './ListingHistory'
import { LocationChip } from './LocationChip'
import { SourceChip } from './SourceChip'

export function forumBadge(category: string, productName: string): string {
  return category === 'gd' ? 'Gundeals' : `${productName} ${category.toUpperCase()}`
}

/** The title with the matched words marked: the parts come from the server (MatchItem.titleParts), which reads
 *  the title as the matcher does — so the browser does not carry the matcher and its dictionary. */
export function Highlighted({ title, parts }: { title: string; parts?: { text: string; hit: boolean }[] }) {
  if (!parts || parts.length === 0) return <>{title}</>
  return <>{parts.map((s, i) => (s.hit ? <mark key={i}>{s.text}</mark> : <span key={i}>{s.text}</span>))}</>
}

type Props = {
  match: Match
  selected?: boolean
  onSelect?: (on: boolean) => void
  onRead?: () => void
  onArchive?: () => void
  /** in the archive: take it back to its list */
  onRestore?: () => void
  /** the match an alert email linked to (?match=): highlighted for a moment */
  flash?: boolean
}

export function MatchCard({ match, selected, onSelect, onRead, onArchive, onRestore, flash }: Props) {
  useSignals()
  const when = cardTime(match.postCreatedAt, match.createdAt)
  return (
    <article
      className={`match-card${match.isNew ? ' is-new' : ''}${flash ? ' flash' : ''}${stateClass(match.state)}`}
      data-testid="match-card"
      data-match-id={match.id}
      aria-current={flash ? 'true' : undefined}
    >
      <div className="match-row">
        {onSelect ? <input type="checkbox" aria-label={`Select ${match.title}`} checked={!!selected} onChange={(e) => onSelect(e.target.checked)} /> : null}
        <div className="match-main">
          <h3 className="match-title">
            <a
              href={match.url}
              target="_blank"
              rel="noopener noreferrer"
              onClick={() => {
                if (match.isNew) onRead?.()
              }}
            >
              <Highlighted title={match.title} parts={match.titleParts} />
            </a>
            {match.isNew ? <span className="badge new-badge">New</span> : null}
            <PostStateBadge state={match.state} />
          </h3>
          <p className="match-meta">
            <span className="badge forum-badge">{forumBadge(match.category, config.value.productName)}</span>
            <span className="term-badge" title="Matched term">
              {matchedTermLabel(match.matchedTerms)}
            </span>
            {match.author ? <span>u/{match.author}</span> : null}
            <LocationChip location={match.location} />
            <SourceChip name={match.sourceName} />
            <time dateTime={typeof when === 'number' ? new Date(when).toISOString() : undefined} title={formatDate(when)}>
              <span className="match-date">{formatDate(when)} · </span>
              {timeAgo(when)}
            </time>
          </p>
          <ListingHistory match={match} />
        </div>
        <div className="match-actions">
          {match.isNew && onRead ? (
            <button type="button" className="outline secondary small" onClick={onRead}>
              Mark as read
            </button>
          ) : null}
          {onArchive ? (
            <button type="button" className="outline secondary small" onClick={onArchive}>
              Archive
            </button>
          ) : null}
          {onRestore ? (
            <button type="button" className="outline secondary small" onClick={onRestore}>
              Restore
            </button>
          ) : null}
        </div>
      </div>
    </article>
  )
}
