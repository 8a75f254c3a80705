// Which source a post came from (a subreddit, a forum's feed, pushed posts: Admin → Logs → Sources), by the name the
// source had when the post arrived. Shown beside the location chip on match cards and live-feed post cards; nothing
// for posts from before sources.
export function SourceChip({ name }: { name?: string | null }) {
  if (!name) return null
  return (
    <span className="source-chip" data-testid="source-chip" title="Where Dibs read this post">
      <span className="visually-hidden">Source: </span>
      {name}
    </span>
  )
}
