// The links an alert's actions go through: /c/<token>, a signed (HMAC-SHA256, the unsubscribe secret with its own
// label) token naming the match, the user, the action (claim | open | read) and the channel that carried it. No
// session is needed, so they work from a mail client and from the service worker without opening the app.
//   GET  claim / open → stamps the alert's first open or claim (src/metrics/latency.ts stampClaim), marks the match
//        read, and redirects (303) to the claim target (src/notify/claim.ts) or the post. A prefetch (Purpose /
//        Sec-Purpose: prefetch) or HEAD only redirects: it is not the user.
//   GET  read → a small page whose one button POSTs (mail scanners GET every link; only a POST changes anything).
//   POST read → marks the match read (the service worker's 'Mark read' button, the page's button): 204.
// The target is worked out at click time from the stored post and the user's current claim template.
import { createHmac } from 'node:crypto'
import type { Deps } from '../deps'
import { escapeHtml } from '../lib/html'
import { safeEqual } from '../lib/tokens'
import { stampClaim } from '../metrics/latency'
import { claimFacts, markRead } from '../matches/service'
import { alertActions, type AlertActionName, type AlertActions, type ClaimPost } from './claim'
import { claimTemplateOf } from './prefs'

/** As long as the alert's latency row is kept (src/metrics/latency.ts LATENCY_KEEP_DAYS). */
export const ALERT_LINK_TTL_MS = 30 * 86_400_000
export type LinkClaims = { m: number; u: number; a: AlertActionName; c: string; e: number }
const ACTIONS: readonly AlertActionName[] = ['claim', 'open', 'read']

function sign(secret: string, body: string): string {
  return createHmac('sha256', secret).update('alert-link.').update(body).digest('base64url')
}

export function createAlertToken(secret: string, claims: Omit<LinkClaims, 'e'>, now: Date): string {
  const body = Buffer.from(JSON.stringify({ ...claims, e: Math.floor((now.getTime() + ALERT_LINK_TTL_MS) / 1000) })).toString('base64url')
  return `${body}.${sign(secret, body)}`
}

export function verifyAlertToken(secret: string, token: string, now: Date): LinkClaims | null {
  const [body, sig, extra] = token.split('.')
  if (!body || !sig || extra !== undefined || !safeEqual(sig, sign(secret, body))) return null
  try {
    const c = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as LinkClaims
    if (!Number.isInteger(c.m) || !Number.isInteger(c.u) || !ACTIONS.includes(c.a) || typeof c.c !== 'string' || !(c.e * 1000 > now.getTime())) return null
    return c
  } catch {
    return null
  }
}

/** The link of one action of one alert, for the channel that carries it. */
export function alertLink(deps: Pick<Deps, 'config' | 'now'>, matchId: number, userId: number, channel: string, action: AlertActionName): string {
  return `${deps.config.appUrl}/c/${createAlertToken(deps.config.secrets.unsubscribeSecret, { m: matchId, u: userId, a: action, c: channel }, deps.now())}`
}

/** The three actions of a match's alert on one channel: Claim and Open through the recording links, and Mark read. `template`: the user's (claimTemplateOf). */
export function alertActionsFor(
  deps: Pick<Deps, 'config' | 'now'>,
  userId: number,
  channel: string,
  m: { id: number; title: string; url: string; author?: string; price?: number | null; sourceKind?: ClaimPost['kind'] },
  template: string | null,
): AlertActions & { claimTarget: string } {
  const post: ClaimPost = { title: m.title, url: m.url, author: m.author ?? '', price: m.price ?? null, kind: m.sourceKind ?? null }
  return alertActions(post, template, (action) => alertLink(deps, m.id, userId, channel, action))
}

export type FollowResult = { kind: 'redirect'; to: string } | { kind: 'page'; html: string; status: number } | { kind: 'done' }

function page(deps: Pick<Deps, 'config'>, heading: string, body: string, status = 200): FollowResult {
  const name = escapeHtml(deps.config.appName)
  return {
    kind: 'page',
    status,
    html: `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(heading)} · ${name}</title></head><body><h1>${escapeHtml(heading)}</h1>${body}<p><a href="${escapeHtml(deps.config.appUrl)}/dashboard">Open ${name}</a></p></body></html>`,
  }
}

const INVALID = 'This link is invalid or has expired'

/** GET /c/<token>: see the header. `prefetch`: a HEAD or a browser's prefetch, which records nothing. */
export async function followAlertLink(deps: Pick<Deps, 'config' | 'now' | 'db' | 'sqlite' | 'bus'>, token: string, prefetch: boolean): Promise<FollowResult> {
  const c = verifyAlertToken(deps.config.secrets.unsubscribeSecret, token, deps.now())
  const facts = c ? await claimFacts(deps, c.m, c.u) : null
  if (!c || !facts) return page(deps, INVALID, '<p>The match may have been removed. Your matches are in the app.</p>', 404)
  if (c.a === 'read')
    return page(deps, 'Mark this match as read?', `<p>${escapeHtml(facts.title)}</p><form method="post"><button type="submit">Mark read</button></form>`)
  const actions = alertActions(facts, await claimTemplateOf(deps, c.u))
  if (!prefetch) {
    await stampClaim(deps, c.m, c.u, deps.now().getTime(), c.c, c.a)
    await markRead(deps, c.u, c.m)
  }
  return { kind: 'redirect', to: c.a === 'claim' ? actions.claim : actions.open }
}

/** POST /c/<token> of a read link: marks the match read. */
export async function postAlertLink(deps: Pick<Deps, 'config' | 'now' | 'db' | 'sqlite' | 'bus'>, token: string): Promise<FollowResult> {
  const c = verifyAlertToken(deps.config.secrets.unsubscribeSecret, token, deps.now())
  if (!c || c.a !== 'read' || !(await claimFacts(deps, c.m, c.u))) return page(deps, INVALID, '', 404)
  await markRead(deps, c.u, c.m)
  return { kind: 'done' }
}
