// One match: title linking out (opening it marks the match read), matched words highlighted,
// matched term(s), forum badge, author, the seller's location (LocationChip), the post's source (SourceChip), post time ('MMM d, h:mm a' + relative); reposts and price drops (ListingHistory).
// Claim in one tap: 'Claim' opens the fastest way to reach the seller (src/notify/claim.ts, the user's claim message),
// 'Open' the post; the first of them is recorded as the alert's time to claim ("You were 14 s after the post").
import { useEffect, useState } from 'react'
import { useSignals } from '@preact/signals-react/runtime'
import { alertActions } from '../../src/notify/claim'
import { sellerText } from '../../src/forums/seller'
import { api, call } from '../client'
import { claimDelayText, claimTemplate, loadClaimTemplate } from '../lib/claim'
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

/** Records the card's first Claim or Open (time to claim, once per alert); the server marks the match read. */
function acted(id: number, action: 'claim' | 'open') {
  void call(api.matches({ id }).acted.post({ action })).catch(() => undefined)
}

export function MatchCard({ match, selected, onSelect, onRead, onArchive, onRestore, flash }: Props) {
  useSignals()
  useEffect(() => void loadClaimTemplate(), [])
  const [claimedAfter, setClaimedAfter] = useState<number | null>(match.claimedAfterMs ?? null)
  const when = cardTime(match.postCreatedAt, match.createdAt)
  const claim = alertActions(
    { title: match.title, url: match.url, author: match.author ?? '', price: match.price ?? null, kind: match.sourceKind ?? null },
    claimTemplate.value,
  ).claim
  const seller = sellerText(match.seller)
  const act = (action: 'claim' | 'open') => {
    if (claimedAfter === null && match.postCreatedAt && !match.archivedAt) setClaimedAfter(Math.max(0, Date.now() - Date.parse(match.postCreatedAt)))
    acted(match.id, action)
  }
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
                act('open')
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
            {seller ? (
              <span className="seller-trust" data-testid="seller-trust" title="Seller: confirmed trades, account age, karma">
                {seller}
              </span>
            ) : null}
            <LocationChip location={match.location} />
            <SourceChip name={match.sourceName} />
            <time dateTime={typeof when === 'number' ? new Date(when).toISOString() : undefined} title={formatDate(when)}>
              <span className="match-date">{formatDate(when)} · </span>
              {timeAgo(when)}
            </time>
          </p>
          <ListingHistory match={match} />
          {claimedAfter !== null ? (
            <p className="match-claimed muted" data-testid="claimed-after">
              <small>You were {claimDelayText(claimedAfter)} after the post</small>
            </p>
          ) : null}
        </div>
        <div className="match-actions">
          <a
            href={claim}
            target="_blank"
            rel="noopener noreferrer"
            role="button"
            className="small"
            data-testid="claim"
            aria-label={`Claim ${match.title}`}
            onClick={() => {
              act('claim')
              if (match.isNew) onRead?.()
            }}
          >
            Claim
          </a>
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
