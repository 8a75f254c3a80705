// The seller-trust look-ups (`author-lookups`, every second on the cron tick; src/services.ts jobList): one
// /user/<name>/about request whenever the budget's side share allows it — the re-check's share, never the live scan's
// (src/forums/rate-budget.ts) — for the next author of a post stored in the last hour that was never looked up (or
// longer than 7 days ago): authors of matched posts first, then the newest (src/forums/authors.ts authorsToLookUp).
// Only with Reddit OAuth (the client's fetchAbout); Atom and the demo forum have no way to read an account.
//
// A post is matched when it is stored, before its author is known: a term with `age>=` or `karma>=` cannot match it
// then. Once the account is known, the author's posts of the last hour are matched again as live posts: terms that
// now match create their matches and alert (a match that exists only gains terms, and alerts no second time).
import type { Deps } from '../deps'
import { authorsToLookUp, recentPostsBy, recordAbout } from '../forums/authors'
import { RedditError } from '../forums/reddit-client'
import { log } from '../lib/log'
import type { WithMatcher } from '../matches/matcher'
import { matchPosts } from '../matches/runner'
import { isPaused } from '../settings/service'
import type { ScanSource, WithSource } from './source'

export type AuthorLookupOutcome = {
  status: 'off' | 'paused' | 'idle' | 'waiting' | 'success' | 'failed'
  author: string | null
  matched: number
  error: string | null
}

export async function runAuthorLookups(deps: Deps & WithSource & WithMatcher, source: ScanSource = deps.source): Promise<AuthorLookupOutcome> {
  const out: AuthorLookupOutcome = { status: 'idle', author: null, matched: 0, error: null }
  if (!source.fetchAbout) return { ...out, status: 'off' }
  if (await isPaused(deps)) return { ...out, status: 'paused' }
  const now = deps.now().getTime()
  if (source.budget && source.budget.sideAllowedAt(now) > now) return { ...out, status: 'waiting' }
  const [name] = await authorsToLookUp(deps, now, 1)
  if (name === undefined) return out
  out.author = name
  try {
    const about = await source.fetchAbout(name)
    await recordAbout(deps, name, about, deps.now().getTime())
    out.status = 'success'
    if (about.status === 'found') {
      const posts = await recentPostsBy(deps, name, deps.now().getTime())
      if (posts.length > 0) {
        const stamps = { receivedAt: posts[0]!.ingestedAt.getTime(), storedAt: posts[0]!.ingestedAt.getTime() }
        out.matched = (await matchPosts(deps, posts, 'live', stamps)).created.length
      }
    }
  } catch (err) {
    out.status = err instanceof RedditError && err.kind === 'rate_limited' && err.details.sent === false ? 'waiting' : 'failed'
    out.error = err instanceof RedditError ? `${err.kind}: ${err.message}` : String(err instanceof Error ? err.message : err)
    if (out.status === 'failed') log.warn('author look-up failed', { author: name, error: out.error })
  }
  return out
}
