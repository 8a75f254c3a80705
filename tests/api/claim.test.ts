// Claim in one tap and time to claim, through the app: a live match's instant email carries Claim / Open / Mark read
// links; following Claim records the alert's first claim once (channel email) and redirects to the prefilled Reddit
// message; the match list shows "post → claim", the latency report and /metrics carry it; Mark read needs a POST.
import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { asAsync } from '../../src/db/async-sqlite'
import { alertLatency, matches, outbox } from '../../src/db/schema'
import { storePosts } from '../../src/forums/store'
import { matchPosts } from '../../src/matches/runner'
import { latencyReport } from '../../src/metrics/latency-stats'
import { dispatchMatch } from '../../src/notify/dispatcher'
import { forumPost } from '../fakes/forum-post'
import { call, createUserWithSession, makeApp, makeDeps, testClock, type TestDeps } from '../helpers'

let deps: TestDeps
const db = () => asAsync(deps.db)
let app: ReturnType<typeof makeApp>
let clock: ReturnType<typeof testClock>
beforeEach(async () => {
  clock = testClock()
  deps = await makeDeps({}, clock)
  app = makeApp(deps)
})
afterEach(() => deps.close())

/** A live match of a fresh post by u/seller_1, posted 12 s ago, with its alert dispatched. */
async function alerted() {
  const u = await createUserWithSession(deps, { emailFrequency: 'instant' })
  expect((await call(app, 'POST', '/api/terms', { cookie: u.cookie, json: { category: 'wts', term: 'rmr' } })).status).toBe(201)
  clock.advance(60_000) // the post comes after the term: it alerts
  const now = deps.now().getTime()
  const [post] = await storePosts(deps, [forumPost('[WTS] Trijicon RMR Type 2 - $400', { author: 'seller_1', now, ageMs: 12_000 })])
  const stamps = { receivedAt: now, storedAt: now }
  const created = (await matchPosts(deps, [post!], 'live', stamps)).created
  expect(created).toHaveLength(1)
  const match = created[0]!.item
  await dispatchMatch(deps, u.userId, match)
  const [row] = await db().select({ payload: outbox.payload }).from(outbox).where(eq(outbox.channel, 'email')).limit(1)
  const mail = row!.payload as { text: string; html: string }
  const links = [...mail.text.matchAll(/(Claim|Open|Mark read): (\S+)/g)].map((m) => [m[1], m[2]!.replace(deps.config.appUrl, '')])
  return { u, post: post!, match, links: Object.fromEntries(links) as Record<'Claim' | 'Open' | 'Mark read', string> }
}

const claimedRow = async (matchId: number) =>
  (
    await db()
      .select({
        claimed_at: alertLatency.claimedAt,
        claim_channel: alertLatency.claimChannel,
        claim_action: alertLatency.claimAction,
        created_at: alertLatency.createdAt,
      })
      .from(alertLatency)
      .where(eq(alertLatency.matchId, matchId))
      .limit(1)
  )[0]!

describe('claim in one tap', () => {
  test('the email carries Claim, Open and Mark read links; Claim redirects to the prefilled message and records the claim once', async () => {
    const { post, match, links } = await alerted()
    expect(Object.keys(links).sort()).toEqual(['Claim', 'Mark read', 'Open'])
    for (const l of Object.values(links)) expect(l).toStartWith('/c/')

    const first = await call(app, 'GET', links.Claim)
    expect(first.status).toBe(303)
    const message = `Hi seller_1, I'd like to claim your "[WTS] Trijicon RMR Type 2 - $400" ($400). Is it still available? ${post.url}`
    expect(first.headers.get('location')).toBe(
      `https://www.reddit.com/message/compose/?${new URLSearchParams({ to: 'seller_1', subject: 'Re: [WTS] Trijicon RMR Type 2 - $400', message })}`,
    )
    const row = await claimedRow(match.id)
    expect(row).toMatchObject({ claim_channel: 'email', claim_action: 'claim' })
    expect(row.claimed_at! - row.created_at!).toBe(12_000)

    // once per alert: a later Open (or a second Claim) changes nothing, and the app's own click is not recorded either
    await Bun.sleep(5)
    const open = await call(app, 'GET', links.Open)
    expect(open.status).toBe(303)
    expect(open.headers.get('location')).toBe(post.url)
    expect(await claimedRow(match.id)).toEqual(row)
    const [u] = await db().select({ userId: matches.userId }).from(matches).where(eq(matches.id, match.id))
    expect(u!.userId).toBeGreaterThan(0)
  })

  test('the match list shows post → claim; the latency report and /metrics carry it per channel', async () => {
    const { u, match, links } = await alerted()
    const before = await call(app, 'GET', '/api/matches?category=wts', { cookie: u.cookie })
    expect(before.body.matches[0]).toMatchObject({ id: match.id, claimedAfterMs: null, sourceKind: null, price: 400 })
    const acted = await call(app, 'POST', `/api/matches/${match.id}/acted`, { cookie: u.cookie, json: { action: 'claim' } })
    expect(acted.body).toEqual({ id: match.id, recorded: true })
    expect((await call(app, 'GET', links.Claim)).status).toBe(303) // a later claim from the email: not recorded
    expect(await claimedRow(match.id)).toMatchObject({ claim_channel: 'app', claim_action: 'claim' })
    const after = await call(app, 'GET', '/api/matches?category=wts', { cookie: u.cookie })
    expect(after.body.matches[0]).toMatchObject({ claimedAfterMs: 12_000, isNew: false })
    const again = await call(app, 'POST', `/api/matches/${match.id}/acted`, { cookie: u.cookie, json: { action: 'open' } })
    expect(again.body.recorded).toBe(false)

    const report = await latencyReport(deps, deps.now().getTime(), '1h')
    expect(report.postToClaim).toEqual([
      { key: 'created_claimed_app', label: 'Posted → opened or claimed from the match card', count: 1, p50Ms: 12_000, p95Ms: 12_000, p99Ms: 12_000 },
    ])
    const text = await deps.metrics.scrape()
    expect(text).toContain('dibs_alert_post_to_claim_seconds_count{channel="app"} 1')
    expect(text).toContain('dibs_alert_post_to_claim_seconds_bucket{le="15",channel="app"} 1')
    // counted once: a second scrape adds nothing
    expect(await deps.metrics.scrape()).toContain('dibs_alert_post_to_claim_seconds_count{channel="app"} 1')
  })

  test('Mark read: the GET only asks (mail scanners), the POST marks the match read; a prefetch or a bad token records nothing', async () => {
    const { u, match, links } = await alerted()
    const page = await call(app, 'GET', links['Mark read'])
    expect(page.status).toBe(200)
    expect(page.text).toContain('<form method="post"><button type="submit">Mark read</button></form>')
    const isNew = async () => (await db().select({ isNew: matches.isNew }).from(matches).where(eq(matches.id, match.id)))[0]!.isNew
    expect(await isNew()).toBe(true)
    expect((await call(app, 'POST', links['Mark read'], { headers: { origin: 'https://elsewhere.example' } })).status).toBe(204)
    expect(await isNew()).toBe(false)

    const prefetch = await call(app, 'GET', links.Claim, { headers: { 'sec-purpose': 'prefetch' } })
    expect(prefetch.status).toBe(303)
    expect((await claimedRow(match.id)).claimed_at).toBeNull()
    const tampered = links.Claim.slice(0, -2) + (links.Claim.endsWith('AA') ? 'AB' : 'AA')
    expect((await call(app, 'GET', tampered)).status).toBe(404)
    // another user's token cannot be made: the signature covers the user id
    expect((await call(app, 'POST', links.Claim)).status).toBe(404) // a claim link does not mark read by POST
    expect((await claimedRow(match.id)).claimed_at).toBeNull()
    expect(u.userId).toBeGreaterThan(0)
  })

  test("the claim template is the user's: saved in the preferences, empty is the default, over 1000 characters refused", async () => {
    const { u, links, post } = await alerted()
    const put = (claim_template: string | null) => call(app, 'PUT', '/api/notifications/preferences', { cookie: u.cookie, json: { claim_template } })
    expect((await put('x'.repeat(1001))).body.error.code).toBe('INVALID_CLAIM_TEMPLATE')
    const saved = await put('  Dibs on {title} at {price}, u/{author}  ')
    expect(saved.body).toMatchObject({ claim_template: 'Dibs on {title} at {price}, u/{author}' })
    const r = await call(app, 'GET', links.Claim)
    expect(new URL(r.headers.get('location')!).searchParams.get('message')).toBe('Dibs on [WTS] Trijicon RMR Type 2 - $400 at $400, u/seller_1')
    expect((await put('')).body.claim_template).toBeNull()
    expect(post.author).toBe('seller_1')
  })
})
