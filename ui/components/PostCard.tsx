// A live-feed post (spec §2): title opens the post in a new tab, snippet (title removed, 97 + '...'),
// forum badge, u/{author}, the seller's location when the title names one, the source it came from, relative and absolute creation time.
import type { FeedItem } from '../../src/contract/events'
import { formatDate, timeAgo } from '../lib/dates'
import { feedCategory } from '../lib/feed'
import { snippet } from '../lib/snippet'
import { LocationChip } from './LocationChip'
import { SourceChip } from './SourceChip'
import { PostStateBadge, stateClass } from './PostStateBadge'

const BADGE = { wts: 'WTS', wtb: 'WTB', gd: 'GUNDEALS' } as const

export function PostCard({ post, highlighted }: { post: FeedItem; highlighted?: boolean }) {
  const text = snippet(post.content, post.title)
  const cat = feedCategory(post)
  return (
    <article
      className={`post-card${highlighted ? ' highlight' : ''}${stateClass(post.state)}`}
      data-testid="post-card"
      data-highlighted={highlighted ? 'true' : undefined}
    >
      <h3>
        <a href={post.url} target="_blank" rel="noopener noreferrer">
          {post.title}
        </a>
        <PostStateBadge state={post.state} />
      </h3>
      {text ? <p className="snippet muted">{text}</p> : null}
      <p className="post-meta">
        {cat ? <span className="badge forum-badge">{BADGE[cat]}</span> : null}
        {post.author ? <span>u/{post.author}</span> : null}
        <LocationChip location={post.location} />
        <SourceChip name={post.source} />
        <time dateTime={post.createdAt}>
          {timeAgo(post.createdAt)} · {formatDate(post.createdAt)}
        </time>
      </p>
    </article>
  )
}
