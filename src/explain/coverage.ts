// "Why didn't I get an alert?" for a post Dibs never stored: was it posted inside a coverage gap
// (src/scanner/gaps.ts), a window the source was not reading? A post read from Reddit has its time;
// one Dibs cannot read (Atom mode: no /api/info) is placed by its id between the stored posts around it
// (Reddit's ids grow with time). Times in the user's zone, as the rest of the explainer writes them.
import type { Deps } from '../deps'
import { storedAround } from '../forums/store'
import { formatTime } from '../notify/explain-delivery'
import { gapAround } from '../scanner/gaps'

/** 'Dibs was not reading r/x between … and …: …', or null when the post is not inside a gap. */
export async function gapSentence(
  deps: Pick<Deps, 'sqlite' | 'db' | 'now'>,
  post: { redditId: string; subreddit: string | null; createdAt: Date | null },
  timeZone: string,
): Promise<string | null> {
  let lo: number
  let hi: number
  if (post.createdAt) lo = hi = post.createdAt.getTime()
  else {
    const around = await storedAround(deps, post.redditId)
    if (around.before === null) return null
    lo = around.before
    hi = around.after ?? deps.now().getTime()
  }
  const gap = await gapAround(deps, post.subreddit, lo, hi)
  if (!gap) return null
  const where = post.subreddit
    ? `r/${post.subreddit}`
    : gap.subreddits
        .split('+')
        .map((s) => `r/${s}`)
        .join(' and ')
  return `Dibs was not reading ${where} between ${formatTime(gap.fromAt, timeZone)} and ${formatTime(gap.toAt, timeZone)}: more posts came between two polls than Reddit's feed holds, and this post was among them`
}
