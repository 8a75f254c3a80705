// A fake Stripe for tests and local runs: a loopback HTTP server speaking the REST subset the app's
// stripe SDK calls (form-encoded bodies with bracketed keys, expand[], lookup_keys[], Stripe's error
// JSON and status codes; Bearer secret key required) and sending SIGNED webhooks to the app the
// way Stripe does (`Stripe-Signature: t=…,v1=HMAC-SHA256(secret, "t.payload")`). Point the SDK at
// it with STRIPE_API_BASE=fake.url and Stripe.js at it with STRIPE_JS_URL=fake.url + '/stripe.js'.
//
// Resources and what Stripe does to them live in tests/fakes/stripe-store.ts (customers, products,
// prices by lookup key, embedded checkout sessions, subscriptions with current_period_end on the
// items as at API version 2026-10-28.endive, invoices, portal configurations and sessions). Test controls move a subscription the way Stripe
// would and send the events Stripe sends for it: completeCheckout, cancelAtPeriodEnd, failPayment,
// endPeriod, switchPlan, cancelNow; replay() re-sends the event log (same ids), in order or
// reversed; unavailable(true) answers every API call 503 (an outage).
//
// For the browser: GET /stripe.js (stand-in Stripe.js, tests/fakes/stripe-js.ts), the session
// summary and Pay endpoint it uses (CORS open), and a tiny billing portal page at the portal URL.
import { createHmac } from 'node:crypto'
import { list, parseStripeForm, type FormValue } from './stripe-form'
import { standInStripeJs } from './stripe-js'
import { createStripeStore, invalid, StripeFail, type Obj, type StripeEvent } from './stripe-store'

export type { StripeEvent }
export type Delivery = { eventId: string; type: string; status: number; body: string }
export type RequestLog = { method: string; path: string; params: Record<string, FormValue> }

const CORS = { 'access-control-allow-origin': '*', 'access-control-allow-methods': 'GET, POST, OPTIONS', 'access-control-allow-headers': 'content-type' }

export type FakeStripe = Awaited<ReturnType<typeof startFakeStripe>>

export async function startFakeStripe(opts: { secretKey?: string; webhookSecret?: string; webhookUrl?: string; now?: () => number } = {}) {
  const secretKey = opts.secretKey ?? 'sk_test_fake'
  let webhookSecret = opts.webhookSecret ?? 'whsec_fake'
  let webhookUrl = opts.webhookUrl ?? null
  const clock = () => Math.floor((opts.now ?? Date.now)() / 1000)
  const store = createStripeStore(clock)
  const { id, customers, products, prices, sessions, subscriptions, invoices, portalConfigs, portalSessions, events } = store
  const { get, sub, listOf, withProduct, publicSession, createProduct, createPrice, priceByLookupKey, createSession, complete } = store
  const { setCancelAtPeriodEnd, cancelImmediately, liveSubscription } = store
  const deliveries: Delivery[] = []
  const requests: RequestLog[] = []
  let down = false
  /** POST answers by Idempotency-Key (Stripe keeps them 24 h): the same key gets the same answer. */
  const idempotent = new Map<string, { status: number; body: string }>()

  // --- webhooks --------------------------------------------------------------------------
  function signature(payload: string, at = clock(), secret = webhookSecret): string {
    const v1 = createHmac('sha256', secret).update(`${at}.${payload}`).digest('hex')
    return `t=${at},v1=${v1}`
  }

  async function deliver(event: StripeEvent): Promise<Delivery> {
    if (webhookUrl === null) throw new Error('fake stripe: no webhook URL set (setWebhook)')
    const payload = JSON.stringify(event, null, 2)
    const res = await fetch(webhookUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': signature(payload) },
      body: payload,
    })
    const d = { eventId: event.id, type: event.type, status: res.status, body: await res.text() }
    deliveries.push(d)
    return d
  }

  /** Records the events and, when a webhook URL is set, delivers them one after another. */
  async function send(list: StripeEvent[]): Promise<Delivery[]> {
    if (webhookUrl === null) return []
    const out: Delivery[] = []
    for (const e of list) out.push(await deliver(e))
    return out
  }

  const api = { createPrice, createSession, setCancelAtPeriodEnd, cancelImmediately }

  // --- HTTP ------------------------------------------------------------------------------
  async function route(req: Request, url: URL): Promise<Response> {
    const path = url.pathname
    const m = (re: RegExp) => re.exec(path)
    let match: RegExpExecArray | null

    // browser endpoints (no key; CORS open)
    if (req.method === 'OPTIONS') return new Response(null, { status: 204, headers: CORS })
    if (path === '/stripe.js') return new Response(standInStripeJs(url.origin), { headers: { 'content-type': 'text/javascript; charset=utf-8', ...CORS } })
    if ((match = m(/^\/_fake\/checkout_sessions\/([^/]+)$/)) && req.method === 'GET') {
      const s = sessions.get(match[1]!)
      if (!s) return Response.json({ error: { message: 'No such checkout session' } }, { status: 404, headers: CORS })
      const price = prices.get(s._price)!
      return Response.json(
        { id: s.id, status: s.status, planName: products.get(price.product)?.name ?? price.lookup_key, amount: price.unit_amount },
        { headers: CORS },
      )
    }
    if ((match = m(/^\/_fake\/checkout_sessions\/([^/]+)\/complete$/)) && req.method === 'POST') {
      try {
        const list = complete(match[1]!)
        const sent = await send(list)
        return Response.json({ ok: true, deliveries: sent.map((d) => d.status) }, { headers: CORS })
      } catch (err) {
        return Response.json({ error: { message: (err as Error).message } }, { status: 400, headers: CORS })
      }
    }
    if ((match = m(/^\/_fake\/portal\/([^/]+)$/)) && req.method === 'GET') return portalPage(match[1]!)
    if ((match = m(/^\/_fake\/portal\/([^/]+)\/cancel$/)) && req.method === 'POST') {
      const ps = get(portalSessions, 'portal session', match[1]!)
      const live = liveSubscription(ps.customer)
      if (live) await send(setCancelAtPeriodEnd(live.id, true))
      return new Response(null, { status: 303, headers: { location: ps.return_url } })
    }

    // the REST API
    if (!path.startsWith('/v1/')) return new Response('not found', { status: 404 })
    if (down) throw new StripeFail(503, 'Stripe is temporarily unavailable (fake outage).', { type: 'api_error' })
    const auth = req.headers.get('authorization') ?? ''
    if (auth !== `Bearer ${secretKey}`) throw new StripeFail(401, 'Invalid API Key provided.', { type: 'invalid_request_error' })
    const params = req.method === 'GET' || req.method === 'DELETE' ? parseStripeForm(url.search.slice(1)) : parseStripeForm(await req.text())
    requests.push({ method: req.method, path, params })
    const p = params as Obj
    const expand = list(p.expand)

    if (path === '/v1/customers' && req.method === 'POST') {
      const c = { id: id('cus'), object: 'customer', email: p.email ?? null, name: p.name ?? null, metadata: p.metadata ?? {}, created: clock() }
      customers.set(c.id, c)
      return Response.json(c)
    }
    if ((match = m(/^\/v1\/customers\/([^/]+)$/)) && req.method === 'GET') return Response.json(get(customers, 'customer', match[1]!))

    if (path === '/v1/products' && req.method === 'POST') return Response.json(createProduct(p))
    if (path === '/v1/products' && req.method === 'GET') return Response.json(listOf([...products.values()], '/v1/products'))
    if ((match = m(/^\/v1\/products\/([^/]+)$/)) && req.method === 'GET') return Response.json(get(products, 'product', match[1]!))

    if (path === '/v1/prices' && req.method === 'POST') return Response.json(createPrice(p))
    if (path === '/v1/prices' && req.method === 'GET') {
      const keys = list(p.lookup_keys)
      let data = [...prices.values()]
      if (keys.length) data = data.filter((x) => keys.includes(x.lookup_key))
      if (p.active !== undefined) data = data.filter((x) => String(x.active) === p.active)
      return Response.json(
        listOf(
          data.map((x) => withProduct(x, expand)),
          '/v1/prices',
        ),
      )
    }
    if ((match = m(/^\/v1\/prices\/([^/]+)$/))) {
      const price = get(prices, 'price', match[1]!)
      if (req.method === 'POST') {
        if (p.active !== undefined) price.active = p.active === 'true'
        if (p.lookup_key !== undefined) price.lookup_key = p.lookup_key || null
      }
      return Response.json(withProduct(price, expand))
    }

    if (path === '/v1/checkout/sessions' && req.method === 'POST') return Response.json(publicSession(createSession(p)))
    if ((match = m(/^\/v1\/checkout\/sessions\/([^/]+)$/)) && req.method === 'GET')
      return Response.json(publicSession(get(sessions, 'checkout session', match[1]!)))

    if (path === '/v1/subscriptions' && req.method === 'GET') {
      let data = [...subscriptions.values()]
      if (p.customer) data = data.filter((s) => s.customer === p.customer)
      const status = p.status ?? 'active'
      // Stripe's default list leaves out canceled subscriptions
      if (status !== 'all') data = data.filter((s) => (p.status ? s.status === status : s.status !== 'canceled'))
      return Response.json(
        listOf(
          data.sort((a, b) => b.created - a.created),
          '/v1/subscriptions',
        ),
      )
    }
    if ((match = m(/^\/v1\/subscriptions\/([^/]+)$/))) {
      const s = sub(match[1]!)
      if (req.method === 'GET') return Response.json(s)
      if (req.method === 'DELETE') {
        await send(cancelImmediately(s.id))
        return Response.json(s)
      }
      if (req.method === 'POST') {
        if (p.cancel_at_period_end !== undefined) await send(setCancelAtPeriodEnd(s.id, p.cancel_at_period_end === 'true'))
        return Response.json(s)
      }
    }

    if (path === '/v1/billing_portal/configurations' && req.method === 'GET') {
      let data = [...portalConfigs.values()]
      if (p.is_default !== undefined) data = data.filter((c) => String(c.is_default) === p.is_default)
      if (p.active !== undefined) data = data.filter((c) => String(c.active) === p.active)
      return Response.json(listOf(data, '/v1/billing_portal/configurations'))
    }
    if (path === '/v1/billing_portal/configurations' && req.method === 'POST') {
      if (!p.features) throw invalid('Missing required param: features.', 'features')
      const c = {
        id: id('bpc'),
        object: 'billing_portal.configuration',
        active: true,
        is_default: portalConfigs.size === 0,
        ...configBody(p),
        created: clock(),
      }
      portalConfigs.set(c.id, c)
      return Response.json(c)
    }
    if ((match = m(/^\/v1\/billing_portal\/configurations\/([^/]+)$/))) {
      const c = get(portalConfigs, 'billing portal configuration', match[1]!)
      if (req.method === 'POST') Object.assign(c, configBody(p))
      return Response.json(c)
    }
    if (path === '/v1/billing_portal/sessions' && req.method === 'POST') {
      if (!p.customer) throw invalid('Missing required param: customer.', 'customer')
      get(customers, 'customer', p.customer)
      if (p.configuration) get(portalConfigs, 'billing portal configuration', p.configuration)
      const sid = id('bps')
      const s = {
        id: sid,
        object: 'billing_portal.session',
        customer: p.customer,
        configuration: p.configuration ?? null,
        return_url: p.return_url ?? null,
        url: `${url.origin}/_fake/portal/${sid}`,
        created: clock(),
      }
      portalSessions.set(sid, s)
      return Response.json(s)
    }
    throw new StripeFail(404, `Unrecognized request URL (${req.method}: ${path}).`)
  }

  function configBody(p: Obj): Obj {
    return {
      features: p.features ?? {},
      business_profile: p.business_profile ?? {},
      default_return_url: p.default_return_url ?? null,
      metadata: p.metadata ?? {},
    }
  }

  function portalPage(sessionId: string): Response {
    const ps = portalSessions.get(sessionId)
    if (!ps) return new Response('No such portal session', { status: 404 })
    const live = liveSubscription(ps.customer)
    const price = live?.items.data[0].price
    const plan = price ? `${products.get(price.product)?.name ?? price.lookup_key} — $${(price.unit_amount / 100).toFixed(2)}/month` : 'No active subscription'
    const cancel =
      live && !live.cancel_at_period_end
        ? `<form method="post" action="/_fake/portal/${sessionId}/cancel"><button type="submit">Cancel plan</button></form>`
        : ''
    const html = `<!doctype html><html><head><title>Stand-in Billing Portal</title></head><body><h1>Stand-in Billing Portal</h1><p>${plan}</p>${
      live?.cancel_at_period_end ? '<p>Cancels at period end</p>' : ''
    }${cancel}<p><a href="${ps.return_url ?? '/'}">Return</a></p></body></html>`
    return new Response(html, { headers: { 'content-type': 'text/html; charset=utf-8' } })
  }

  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    async fetch(req) {
      const url = new URL(req.url)
      const key = req.method === 'POST' && url.pathname.startsWith('/v1/') && !down ? req.headers.get('idempotency-key') : null
      const seen = key === null ? undefined : idempotent.get(`${url.pathname} ${key}`)
      if (seen) return new Response(seen.body, { status: seen.status, headers: { 'content-type': 'application/json', 'idempotent-replayed': 'true' } })
      const res = await answer(req, url)
      if (key !== null && res.status < 500) idempotent.set(`${url.pathname} ${key}`, { status: res.status, body: await res.clone().text() })
      return res
    },
  })

  async function answer(req: Request, url: URL): Promise<Response> {
    try {
      return await route(req, url)
    } catch (err) {
      if (err instanceof StripeFail) {
        const { type, ...extra } = err.extra
        return Response.json(
          {
            error: {
              type: type ?? 'invalid_request_error',
              message: err.message,
              ...Object.fromEntries(Object.entries(extra).filter(([, v]) => v !== undefined)),
            },
          },
          { status: err.status, headers: { 'request-id': id('req') } },
        )
      }
      return Response.json({ error: { type: 'api_error', message: String(err) } }, { status: 500 })
    }
  }
  const origin = `http://127.0.0.1:${server.port}`

  return {
    url: origin,
    jsUrl: `${origin}/stripe.js`,
    secretKey,
    /** the env that points the app at this fake (billing on) */
    env: (): Record<string, string> => ({
      STRIPE_SECRET_KEY: secretKey,
      STRIPE_PUBLISHABLE_KEY: 'pk_test_fake',
      STRIPE_WEBHOOK_SECRET: webhookSecret,
      STRIPE_API_BASE: origin,
      STRIPE_JS_URL: `${origin}/stripe.js`,
    }),
    setWebhook(url: string | null, secret?: string) {
      webhookUrl = url
      if (secret !== undefined) webhookSecret = secret
    },
    unavailable(on: boolean) {
      down = on
    },
    signature,
    // state, for assertions
    customers,
    products,
    prices,
    sessions,
    subscriptions,
    invoices,
    portalConfigs,
    events,
    deliveries,
    requests,
    priceByLookupKey,
    api,
    // controls: each moves Stripe's state and delivers the events Stripe would send
    completeCheckout: (sessionId: string) => send(complete(sessionId)),
    cancelAtPeriodEnd: (subId: string, on = true) => send(setCancelAtPeriodEnd(subId, on)),
    /** The renewal's payment fails: the next period opens unpaid and the subscription is past_due. */
    failPayment: (subId: string) => send(store.failPayment(subId)),
    /** The current period ends: a canceling or past_due subscription ends; a paying one renews for a month. */
    endPeriod: (subId: string) => send(store.endPeriod(subId)),
    /** A plan switch in the portal: the item moves to the price holding `lookupKey` (Stripe prorates). */
    switchPlan: (subId: string, lookupKey: string) => send(store.switchPlan(subId, lookupKey)),
    cancelNow: (subId: string) => send(cancelImmediately(subId)),
    /** Sends the event log again with the same ids (Stripe retries), in order or reversed. */
    replay(opts: { reverse?: boolean; events?: StripeEvent[] } = {}) {
      const list = [...(opts.events ?? events)]
      return send(opts.reverse ? list.reverse() : list)
    },
    deliver,
    /** The subscription created by a completed checkout session. */
    subscriptionOf(sessionId: string): Obj {
      return sub(get(sessions, 'checkout session', sessionId).subscription)
    },
    stop: () => server.stop(true),
  }
}
