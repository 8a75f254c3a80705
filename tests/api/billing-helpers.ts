// The billing suites' world: the fake Stripe (tests/fakes/stripe.ts) and a real server pointed at
// it (STRIPE_API_BASE), the fake's webhooks going to the server's /api/billing/webhook.
import { eq } from 'drizzle-orm'
import { asAsync } from '../../src/db/async-sqlite'
import { userAccess, auditLog, accessHistory } from '../../src/db/schema'
import { startFakeStripe, type FakeStripe } from '../fakes/stripe'
import { createUserWithSession, startTestServer } from '../helpers'
import { emails } from './auth-helpers'

export const DAY_MS = 24 * 60 * 60 * 1000

export async function billingWorld(env: Record<string, string> = {}) {
  const stripe = await startFakeStripe()
  const server = await startTestServer({ ...stripe.env(), ...env })
  stripe.setWebhook(`${server.url}/api/billing/webhook`)
  const deps = server.deps

  async function api(method: string, path: string, opts: { json?: unknown; cookie?: string; headers?: Record<string, string>; body?: string } = {}) {
    const headers: Record<string, string> = { origin: deps.config.appUrl, ...opts.headers }
    if (opts.json !== undefined) headers['content-type'] = 'application/json'
    if (opts.cookie) headers.cookie = opts.cookie
    const res = await fetch(server.url + path, { method, headers, body: opts.body ?? (opts.json === undefined ? undefined : JSON.stringify(opts.json)) })
    const text = await res.text()
    let body: any = text
    try {
      body = JSON.parse(text)
    } catch {}
    return { status: res.status, body }
  }

  const row = async (userId: number) => (await asAsync(deps.db).select().from(userAccess).where(eq(userAccess.userId, userId)).limit(1))[0]!

  /** Comparable state of a user: role, status, expiry, Stripe links. */
  const state = async (userId: number) => {
    const r = await row(userId)
    return {
      role: r.role,
      status: r.subscriptionStatus,
      expires: r.accessExpiresAt?.toISOString() ?? null,
      customer: r.stripeCustomerId,
      subscription: r.stripeSubscriptionId,
    }
  }

  const returnUrl = () => `${deps.config.appUrl}/dashboard/subscription`

  async function checkout(cookie: string, planType: string) {
    const r = await api('POST', '/api/billing/checkout', { cookie, json: { planType, returnUrl: returnUrl() } })
    if (r.status !== 200) throw new Error(`checkout ${r.status} ${JSON.stringify(r.body)}`)
    const sessionId = String(r.body.client_secret).split('_secret_')[0]!
    return { clientSecret: r.body.client_secret as string, sessionId }
  }

  /** Checkout + payment: the subscription exists and its webhooks were delivered. */
  async function subscribe(cookie: string, planType: string) {
    const { sessionId } = await checkout(cookie, planType)
    const deliveries = await stripe.completeCheckout(sessionId)
    return { sessionId, subId: stripe.subscriptionOf(sessionId).id as string, deliveries }
  }

  return {
    stripe,
    server,
    deps,
    api,
    row,
    state,
    checkout,
    subscribe,
    returnUrl,
    user: (opts: Parameters<typeof createUserWithSession>[1] = {}) => createUserWithSession(deps, opts),
    me: async (cookie: string) => (await api('GET', '/api/me', { cookie })).body.access,
    audit: () => asAsync(deps.db).select().from(auditLog).orderBy(auditLog.id),
    history: (userId: number) => asAsync(deps.db).select().from(accessHistory).where(eq(accessHistory.userId, userId)).orderBy(accessHistory.id),
    emails: (to: string) => emails(deps, to),
    async stop() {
      await server.stop()
      await stripe.stop()
    },
  }
}

export type BillingWorld = Awaited<ReturnType<typeof billingWorld>>
export type { FakeStripe }
