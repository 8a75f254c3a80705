// What a user pastes into "Why didn't I get an alert?" → a Reddit post id (base 36). Pure.
// Accepted: a post URL on reddit.com (www., old., new., np., m., no host prefix), redd.it/<id>,
// a path /r/<sub>/comments/<id>/…, each with or without scheme, query string or fragment; a
// fullname t3_<id>; a bare id. Anything else gets the one message below.

export const REF_MESSAGE = "Paste a Reddit post link, like https://www.reddit.com/r/…/comments/abc123/…, or its id; for a forum's post, the thread's link"

/** Reddit ids are base 36; today's are 6–7 characters, old ones shorter. */
const ID = /^[0-9a-z]{1,12}$/

export type PostRef = { ok: true; redditId: string; subreddit: string | null } | { ok: false; error: string }

const fail: PostRef = { ok: false, error: REF_MESSAGE }

export function parsePostRef(raw: string): PostRef {
  const input = raw.trim()
  if (input === '' || input.length > 500) return fail
  const lower = input.toLowerCase()
  // a bare id: letters and digits only (a word like "hello" is a valid base-36 id too: Reddit will say)
  if (ID.test(lower)) return { ok: true, redditId: lower, subreddit: null }
  const fullname = /^t3_([0-9a-z]{1,12})$/.exec(lower)
  if (fullname) return { ok: true, redditId: fullname[1]!, subreddit: null }
  let url: URL
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(input) ? input : input.startsWith('/') ? `https://www.reddit.com${input}` : `https://${input}`)
  } catch {
    return fail
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return fail
  const host = url.hostname.toLowerCase()
  const segments = url.pathname.split('/').filter(Boolean)
  if (host === 'redd.it' || host === 'www.redd.it') {
    const id = segments[0]?.toLowerCase()
    return segments.length === 1 && id && ID.test(id) ? { ok: true, redditId: id, subreddit: null } : fail
  }
  if (host !== 'reddit.com' && !host.endsWith('.reddit.com')) return fail
  // /r/<sub>/comments/<id>/… or /comments/<id>/…
  const at = segments.findIndex((s) => s.toLowerCase() === 'comments')
  if (at < 0) return fail
  const id = segments[at + 1]?.toLowerCase()
  if (!id || !ID.test(id)) return fail
  const sub = at >= 2 && segments[at - 2]!.toLowerCase() === 'r' ? segments[at - 1]! : null
  return { ok: true, redditId: id, subreddit: sub }
}
