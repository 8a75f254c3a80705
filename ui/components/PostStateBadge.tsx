// A listing that is no longer simply for sale (the re-check, src/forums/recheck.ts): a SOLD /
// Removed / Pending badge, and a class that dims its card. Match cards, the archive and the landing
// feed use both; `post.updated` changes them live.
import type { PostState } from '../../src/contract/events'

export const STATE_BADGE: Record<Exclude<PostState, 'open'>, string> = { sold: 'SOLD', removed: 'Removed', pending: 'Pending' }

export function PostStateBadge({ state }: { state: PostState | undefined }) {
  if (!state || state === 'open') return null
  return (
    <span
      className={`badge state-badge state-${state}`}
      data-testid="state-badge"
      title={state === 'removed' ? 'Removed from Reddit' : `Marked ${STATE_BADGE[state]}`}
    >
      {STATE_BADGE[state]}
    </span>
  )
}

/** ' is-closed' for a sold or removed listing (dimmed), ' is-pending' for a pending one, '' when open. */
export function stateClass(state: PostState | undefined): string {
  if (state === 'sold' || state === 'removed') return ' is-closed'
  return state === 'pending' ? ' is-pending' : ''
}

/** A list's items with the post's new state (a `post.updated` message). */
export function withPostState<T extends { state?: PostState }>(list: T[], idOf: (item: T) => number | null | undefined, postId: number, state: PostState): T[] {
  return list.some((x) => idOf(x) === postId && x.state !== state) ? list.map((x) => (idOf(x) === postId ? { ...x, state } : x)) : list
}
