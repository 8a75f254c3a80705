// "Why didn't I get an alert?" (issue 16 item 4): one post, one user → when Dibs saw the post, its
// category, every term of the user in that category with the matcher's reason (src/matching/explain.ts,
// the index's own checks) and the reasons outside it (verdicts.ts), and, when a match exists, what
// each channel did (src/notify/explain-delivery.ts).
//
// Finding the post: stored → the stored row. Not stored → one /api/info request for its id on the
// rate budget's side share (the re-check's; never the live scan's): when the share has no room now
// the answer says when to try again, and nothing is sent; when the source cannot read at all (blocked,
// failing, sent to the login page) the answer names that and its fix instead of the budget. A fetched post is explained, never stored
// (storing it here would make a later scan skip it as known, and alert nobody).
import { canUseCategory } from '../access/rules'
import { userWithAccess } from '../access/state'
import { isCategory, type Category } from '../access/categories'
import type { Post } from '../db/schema'
import type { Deps } from '../deps'
import { classify } from '../forums/classify'
import type { ForumPost } from '../forums/listing'
import { asPostState, detectPostState, type PostState } from '../forums/post-state'
import { RedditError } from '../forums/reddit-client'
import { cannotRead, troubleText } from '../forums/source-health'
import { postByLink, postByRedditId } from '../forums/store'
import { AppError, badRequest, forbidden, notFound, tooMany } from '../lib/errors'
import type { RateLimiter } from '../lib/rate-limit'
import { findUserByEmail } from '../auth/service'
import { matchOfUserPost } from '../matches/alert-reads'
import { termIdsOfMatch } from '../matches/store'
import { defaultsVerdict, getMatchDefaults } from '../matches/defaults'
import { socketTimeOf } from '../metrics/latency'
import { countSubscriptions } from '../notify/push-subscriptions'
import { termsByIds, termsOfUserByCategory } from '../terms/reads'
import type { WithMatcher } from '../matches/matcher'
import { explainTerm } from '../matching/explain'
import { parseTerm } from '../matching/parse'
import { matchTermSettings } from '../notify/term-settings'
import { controlOf, externalGate, userEndpoints } from '../notify/endpoints'
import { channelOutcomes, digestAfter, type ChannelOutcome } from '../notify/explain-delivery'
import { rowsOfMatch } from '../outbox/stats'
import { getPrefs } from '../notify/prefs'
import { isTimeZone } from '../notify/quiet-hours'
import { categoryLabel } from '../notify/templates'
import { notificationGate } from '../access/rules'
import type { WithSource } from '../scanner/source'
import { parsePostRef } from './post-ref'
import { gapSentence } from './coverage'
import { authorAbout } from '../forums/authors'
import { blockedSeller } from '../forums/blocked-sellers'
import { hasRedditKey, keyOnlyNoteOf } from '../forums/key-only'
import { otherCategoryLines, REASON_TEXTS, termVerdict, unclassifiedReason, type TermVerdict } from './verdicts'
import type { EndpointKind } from '../notify/endpoints'

export type ExplainDeps = Deps & WithMatcher & WithSource

export type Explanation = {
  user: { id: number; email: string }
  post: {
    redditId: string
    title: string
    url: string
    author: string
    flair: string | null
    subreddit: string
    /** the name of the source it came from (a forum feed's, a push source's), null for a post Dibs never stored */
    source: string | null
    createdAt: string
    state: PostState
    stored: boolean
    ingestedAt: string | null
    /** 'seen 6 s after it was posted' or why Dibs has no copy */
    seen: string
  }
  category: { value: Category | null; label: string; reason: string | null }
  terms: TermVerdict[]
  otherTerms: string[]
  match: { id: number; matchedAt: string; source: string; matchedTerms: string[]; channels: ChannelOutcome[] } | null
  /** the one zone every time of the answer is written in: quiet hours' zone, else the asker's browser zone, else UTC */
  timeZone: string
}

/** 6 s, 2 min 5 s, 3 h 10 min, 2 d 4 h. */
export function duration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000))
  if (s < 60) return `${s} s`
  const m = Math.floor(s / 60)
  if (m < 60) return s % 60 ? `${m} min ${s % 60} s` : `${m} min`
  const h = Math.floor(m / 60)
  if (h < 48) return m % 60 ? `${h} h ${m % 60} min` : `${h} h`
  return `${Math.floor(h / 24)} d ${h % 24} h`
}

/** The user asked about: oneself, or (admins) anyone by id or email. */
async function targetUser(deps: Deps, asker: { id: number; role: string }, who: string | undefined) {
  const raw = who?.trim() ?? ''
  let id = asker.id
  if (raw !== '') {
    if (/^\d+$/.test(raw)) id = Number(raw)
    else {
      if (asker.role !== 'admin') throw forbidden('Only admins can ask on behalf of another user.')
      const found = (await findUserByEmail(deps, raw.toLowerCase()))?.id ?? null
      if (found === null) throw notFound(`No user with the email ${raw}.`, 'USER_NOT_FOUND')
      id = found
    }
  }
  if (id !== asker.id && asker.role !== 'admin') throw forbidden('Only admins can ask on behalf of another user.')
  const found = await userWithAccess(deps, id)
  if (!found) throw notFound(`No user with the id ${id}.`, 'USER_NOT_FOUND')
  return found
}

function watched(deps: Pick<Deps, 'config'>): string {
  const { accessories, deals } = deps.config.forums
  return `r/${accessories} and r/${deals}`
}

function notWatched(deps: Pick<Deps, 'config'>, subreddit: string): AppError {
  return badRequest(`That post is in r/${subreddit}, which Dibs does not watch (it watches ${watched(deps)}).`, 'NOT_WATCHED')
}

/** Reddit reads per user (admins aside): the side share is the re-check's too, so one user cannot use it all. */
export const READS_PER_USER = { limit: 5, windowMs: 10 * 60_000 }

/** A post Dibs never stored, read by id within the budget's side share; a source in trouble is named, with its fix. */
async function fetchPost(deps: ExplainDeps, redditId: string, reads?: () => number): Promise<ForumPost> {
  const { source } = deps
  const health = source.healthReport?.()
  const trouble = cannotRead(health) ? ` The Reddit source is ${troubleText(health)}.` : ''
  if (!source.fetchInfo)
    throw new AppError(
      503,
      'REDDIT_UNAVAILABLE',
      (source.mode === 'atom'
        ? 'Dibs has no copy of this post, and without a Reddit key it cannot read posts by id (Reddit closed logged-out JSON in May 2026; the Atom feed shows only the newest posts).'
        : 'Dibs has no copy of this post and cannot read posts by id from this forum source.') + trouble,
    )
  const now = deps.now().getTime()
  const seconds = (at: number) => Math.max(1, Math.ceil((at - now) / 1000))
  const busy = (at: number, reddit429 = false) =>
    !Number.isFinite(at)
      ? new AppError(503, 'REDDIT_UNAVAILABLE', 'Dibs has no copy of this post and may not ask Reddit for it: RECHECK_BUDGET_SHARE is 0.')
      : reddit429
        ? tooMany(`Dibs has no copy of this post, and Reddit asked Dibs to slow down (HTTP 429); try again in ${seconds(at)} s`, seconds(at))
        : tooMany(
            `Dibs has no copy of this post and has just asked Reddit for another; it paces these reads so that scanning keeps its share of Reddit's requests. Try again in ${seconds(at)} s`,
            seconds(at),
          )
  if (source.budget) {
    const at = source.budget.sideAllowedAt(now)
    // a source that cannot read now is the cause, not the budget (whose backoff follows from it)
    if (at > now && trouble) throw new AppError(503, 'SOURCE_UNAVAILABLE', `Dibs has no copy of this post and cannot ask Reddit for it now.${trouble}`)
    if (at > now) throw busy(at)
  }
  const wait = reads?.() ?? 0
  if (wait > 0) throw tooMany(`You asked Reddit for ${READS_PER_USER.limit} posts Dibs had not stored in a few minutes; try again in ${wait} s`, wait)
  let found
  try {
    found = await source.fetchInfo([redditId])
  } catch (e) {
    if (e instanceof RedditError && e.kind === 'rate_limited')
      throw busy(e.details.retryAt ?? now + 1000 * (e.details.resetSeconds ?? 60), e.details.sent !== false)
    const why = e instanceof RedditError && e.kind !== 'timeout' && e.kind !== 'network' && e.kind !== 'server' ? e.message : null
    throw new AppError(
      502,
      'REDDIT_FAILED',
      why ? `Reddit refused to give this post: ${why}` : `Reddit did not answer (${e instanceof Error ? e.message : String(e)}); try again in a minute.`,
    )
  }
  const post = found.find((p) => p.redditId === redditId)?.post
  if (!post) throw notFound(`Reddit has no post with the id ${redditId}.`, 'POST_NOT_FOUND')
  return post
}

/** A stored post whose link is this address (trailing slash and fragment aside): how a forum's post is named. */
async function storedPostByLink(deps: Pick<Deps, 'db'>, raw: string): Promise<Post | null> {
  let url: URL
  try {
    url = new URL(raw.trim())
  } catch {
    return null
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null
  url.hash = ''
  return await postByLink(deps, url.href.replace(/\/+$/, ''))
}

/** `readLimit`: counts the asker's reads of posts Dibs never stored (admins are not counted). */
export async function explainPost(
  deps: ExplainDeps,
  asker: { id: number; role: string },
  input: { url: string; userId?: string; timeZone?: string },
  readLimit?: RateLimiter,
): Promise<Explanation> {
  const parsed = parsePostRef(input.url)
  // a forum feed's or a pushed post: found by its link among the stored posts (Dibs cannot read those by id)
  const byLink = parsed.ok ? null : await storedPostByLink(deps, input.url)
  if (!parsed.ok && !byLink) throw badRequest(parsed.error, 'INVALID_POST_REF')
  const ref = parsed.ok ? parsed : { ok: true as const, redditId: byLink!.redditId, subreddit: null }
  const { user, access } = await targetUser(deps, asker, input.userId)
  const forums = deps.config.forums
  if (ref.subreddit !== null && classify({ title: '', subreddit: ref.subreddit }, forums) === null) throw notWatched(deps, ref.subreddit)

  const stored = byLink ?? (await postByRedditId(deps, ref.redditId))
  let post: Pick<Post, 'redditId' | 'title' | 'url' | 'author' | 'flair' | 'authorFlair' | 'content' | 'subreddit' | 'createdAt' | 'state'>
  let category: Category | null
  let forum: 'product' | 'gd'
  if (stored) {
    post = stored
    category = isCategory(stored.postType) ? stored.postType : null
    forum = stored.forum === 'gd' ? 'gd' : 'product'
  } else {
    const fetched = await fetchPost(deps, ref.redditId, readLimit && asker.role !== 'admin' ? () => readLimit.hit(`explain:${asker.id}`) : undefined).catch(
      async (e) => {
        // unreadable (no key): a post whose id falls inside a coverage gap is told so first
        const gap =
          e instanceof AppError && e.code === 'REDDIT_UNAVAILABLE'
            ? await gapSentence(deps, { ...ref, createdAt: null }, await timeZoneOf(deps, user.id))
            : null
        throw gap ? new AppError(e.status, e.code, `${gap}. ${e.message}`) : e
      },
    )
    const c = classify(fetched, forums)
    if (c === null) throw notWatched(deps, fetched.subreddit)
    post = { ...fetched, authorFlair: fetched.authorFlair ?? null, state: detectPostState(fetched) }
    category = c.postType
    forum = c.forum
  }
  const now = deps.now()
  const timeZone = (await getPrefs(deps, user.id)).quiet?.timeZone ?? (input.timeZone && isTimeZone(input.timeZone) ? input.timeZone : 'UTC')
  const label = (c: Category) => categoryLabel(deps.config, c)
  const createdAt = post.createdAt.getTime()
  const seen = stored
    ? `seen ${duration(stored.ingestedAt.getTime() - createdAt)} after it was posted`
    : ((await gapSentence(deps, post, await timeZoneOf(deps, user.id))) ??
      'not stored: Dibs never saw this post in the listings it read (posted while the scanner was stopped or behind, or before its first scan)')

  const terms = await termsOfUserByCategory(deps, user.id)
  const counts: Partial<Record<Category, number>> = {}
  for (const t of terms) if (isCategory(t.category)) counts[t.category] = (counts[t.category] ?? 0) + 1

  const verdicts: TermVerdict[] = []
  if (category !== null) {
    const prepared = deps.matcher.prepare(post, await authorAbout(deps, post.author))
    const blocked = await blockedSeller(deps, post.author)
    const userFacts = { planCovers: canUseCategory(access, category, now), defaults: defaultsVerdict(await getMatchDefaults(deps, user.id), post) }
    for (const t of terms) {
      if (t.category !== category) continue
      const parsed = parseTerm(t.term)
      const explained = parsed.ok ? explainTerm(deps.matcher.compile(parsed.query), prepared, category) : null
      const verdict = termVerdict(
        { id: t.id, term: t.term, category, createdAt: t.created_at, pausedAt: t.paused_at, explained },
        { createdAt, category },
        userFacts,
      )
      // a flair:/trades>= term without a Reddit key: why it cannot match here (src/forums/key-only.ts)
      const note = parsed.ok ? keyOnlyNoteOf(parsed.query, hasRedditKey(deps.config)) : null
      if (note && !verdict.matched) verdict.reasons.push(note)
      // the admin's never-alert list (src/forums/blocked-sellers.ts): the matcher drops the post before any term
      if (blocked) {
        verdict.blockers.unshift(REASON_TEXTS.blockedSeller(blocked.name, blocked.reason))
        verdict.alerts = false
      }
      verdicts.push(verdict)
    }
  }

  return {
    user: { id: user.id, email: user.email },
    post: {
      redditId: post.redditId,
      title: post.title,
      url: post.url,
      author: post.author,
      flair: post.flair,
      subreddit: post.subreddit,
      source: stored?.sourceName ?? null,
      createdAt: post.createdAt.toISOString(),
      state: asPostState(post.state),
      stored: stored !== null,
      ingestedAt: stored ? stored.ingestedAt.toISOString() : null,
      seen,
    },
    category: {
      value: category,
      label: category === null ? 'Unclassified' : label(category),
      reason:
        category !== null
          ? null
          : forum === 'product'
            ? `unclassified: ${unclassifiedReason(post.title, post.flair)}; unclassified posts are not checked against any term`
            : null,
    },
    terms: verdicts,
    otherTerms: otherCategoryLines(counts, category, label),
    match: stored ? await matchOf(deps, user.id, stored, access, timeZone) : null,
    timeZone,
  }
}

/** The zone the explainer writes times in: the user's quiet-hours zone, else UTC. */
const timeZoneOf = async (deps: Deps, userId: number) => (await getPrefs(deps, userId)).quiet?.timeZone ?? 'UTC'

async function matchOf(
  deps: Deps,
  userId: number,
  post: Post,
  access: Parameters<typeof notificationGate>[0],
  timeZone: string,
): Promise<Explanation['match']> {
  const m = await matchOfUserPost(deps, userId, post.id)
  if (!m) return null
  const now = deps.now()
  const prefs = await getPrefs(deps, userId)
  const gates = notificationGate(access, now)
  const termsCreated = await termsByIds(deps, await termIdsOfMatch(deps, m.id))
  // runner.ts rule 4: a live match alerts only when the post came after one of its terms.
  const fresh = termsCreated.length === 0 || termsCreated.some((t) => t.created_at <= post.createdAt.getTime())
  const noAlert =
    m.source === 'backfill'
      ? 'found when the term was added or edited: a backfill never alerts'
      : m.source === 'batch'
        ? 'found by a batch run (dibs match): it never alerts'
        : fresh
          ? null
          : REASON_TEXTS.createdBefore
  const devices = await countSubscriptions(deps, userId)
  const endpoints = externalGate(access, now).allowed
    ? (await userEndpoints(deps, userId)).map((e) => ({
        id: e.id,
        kind: e.kind as EndpointKind,
        name: e.name,
        createdAt: e.createdAt.getTime(),
        level: controlOf(e).level,
      }))
    : []
  const channels = channelOutcomes({
    now: now.getTime(),
    timeZone,
    match: { id: m.id, source: m.source, isNew: m.is_new === 1, matchedAt: m.created_at, postCreatedAt: m.post_created_at },
    postState: post.state,
    terms: await matchTermSettings(deps, m.id),
    emailFrequency: prefs.email_frequency,
    webPushEnabled: prefs.web_push_enabled,
    gates: { email: gates.email.allowed, push: gates.webPush.allowed, external: externalGate(access, now).allowed },
    devices,
    endpoints,
    rows: await rowsOfMatch(deps, m.id),
    digest: await digestAfter(deps, userId, m.created_at),
    digestIntervalMinutes: deps.config.digestIntervalMinutes,
    socketAt: await socketTimeOf(deps, m.id),
    noAlert,
    priceDrop: m.price_drop !== null,
  })
  let matchedTerms: string[] = []
  try {
    matchedTerms = JSON.parse(m.matched_terms) as string[]
  } catch {
    matchedTerms = []
  }
  return { id: m.id, matchedAt: new Date(m.created_at).toISOString(), source: m.source, matchedTerms, channels }
}
