// A fake Stripe for tests and local runs: a loopback HTTP server speaking the REST subset the app's
// stripe SDK calls (form-encoded bodies with bracketed keys, expand[], lookup_keys[], Stripe's error
// JSON and status codes; Bearer secret key required) and sending SIGNED webhooks to the app the
// way Stripe does (`Stripe-Signature: t=…,v1=HMAC-SHA256(secret, "t.payload")`). Point the SDK at
// it with STRIPE_API_BASE=fake.url and Stripe.js at it with STRIPE_JS_URL=fake.url + '/stripe.js'.
//
// Resources: customers, products, prices (lookup keys), checkout sessions (embedded_page),
// subscriptions (current_period_end on the items, as at API version 2026-10-28.endive),
// billing_portal configurations and sessions. Test controls move a subscription the way Stripe
// would and send the events Stripe sends for it: completeCheckout, cancelAtPeriodEnd, failPayment,
// endPeriod, switchPlan, cancelNow; replay() re-sends the event log (same ids), in order or
// reversed; unavailable(true) answers every API call 503 (an outage).
//
// For the browser: GET /stripe.js (stand-in Stripe.js, tests/fakes/stripe-js.ts), the session
// summary and Pay endpoint it uses (CORS open), and a tiny billing portal page at the portal URL.
import { createHmac, randomBytes } from 'node:crypto'
import { list, parseStripeForm, type FormValue } from './stripe-form'
import { standInStripeJs } from './stripe-js'

const API_VERSION = '2026-10-28.endive'
const MONTH_S = 30 * 24 * 60 * 60
const HOUR_S = 60 * 60

type Obj = Record<string, any>
export type StripeEvent = {
  id: string
  object: 'event'
  type: string
  created: number
  api_version: string
  livemode: false
  data: { object: Obj }
  [k: string]: unknown
}
export type Delivery = { eventId: string; type: string; status: number; body: string }
export type RequestLog = { method: string; path: string; params: Record<string, FormValue> }

const CORS = { 'access-control-allow-origin': '*', 'access-control-allow-methods': 'GET, POST, OPTIONS', 'access-control-allow-headers': 'content-type' }

class StripeFail extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly extra: Obj = {},
  ) {
    super(message)
  }
}
const missing = (kind: string, id: string) => new StripeFail(404, `No such ${kind}: '${id}'`, { code: 'resource_missing', param: 'id' })
const invalid = (message: string, param?: string) => new StripeFail(400, message, { param })

export type FakeStripe = Awaited<ReturnType<typeof startFakeStripe>>

export async function startFakeStripe(opts: { secretKey?: string; webhookSecret?: string; webhookUrl?: string; now?: () => number } = {}) {
  const secretKey = opts.secretKey ?? 'sk_test_fake'
  let webhookSecret = opts.webhookSecret ?? 'whsec_fake'
  let webhookUrl = opts.webhookUrl ?? null
  const clock = () => Math.floor((opts.now ?? Date.now)() / 1000)
  const id = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`

  const customers = new Map<string, Obj>()
  const products = new Map<string, Obj>()
  const prices = new Map<string, Obj>()
  const sessions = new Map<string, Obj>()
  const subscriptions = new Map<string, Obj>()
  const invoices = new Map<string, Obj>()
  const portalConfigs = new Map<string, Obj>()
  const portalSessions = new Map<string, Obj>()
  const events: StripeEvent[] = []
  const deliveries: Delivery[] = []
  const requests: RequestLog[] = []
  let down = false

  // --- resources -------------------------------------------------------------------------
  const get = (map: Map<string, Obj>, kind: string, key: string) => {
    const o = map.get(key)
    if (!o) throw missing(kind, key)
    return o
  }
  const withProduct = (price: Obj, expand: string[]) =>
    expand.includes('product') || expand.includes('data.product') ? { ...price, product: products.get(price.product) ?? price.product } : price
  const listOf = (data: Obj[], url: string) => ({ object: 'list', data, has_more: false, url })

  function createProduct(p: Obj): Obj {
    const product = { id: id('prod'), object: 'product', active: true, name: p.name, metadata: p.metadata ?? {}, created: clock() }
    if (!product.name) throw invalid('Missing required param: name.', 'name')
    products.set(product.id, product)
    return product
  }

  function createPrice(p: Obj): Obj {
    const productId = p.product ?? (p.product_data ? createProduct(p.product_data).id : null)
    if (!productId) throw invalid('Missing required param: product.', 'product')
    get(products, 'product', productId)
    if (!p.currency) throw invalid('Missing required param: currency.', 'currency')
    const lookupKey = p.lookup_key ?? null
    if (lookupKey !== null) {
      const holder = [...prices.values()].find((x) => x.lookup_key === lookupKey)
      if (holder && p.transfer_lookup_key !== 'true')
        throw invalid(`A price (\`${holder.id}\`) already uses that lookup key. Set \`transfer_lookup_key\` to move it.`, 'lookup_key')
      if (holder) holder.lookup_key = null
    }
    const price = {
      id: id('price'),
      object: 'price',
      active: true,
      currency: p.currency,
      unit_amount: Number(p.unit_amount),
      recurring: p.recurring ? { interval: p.recurring.interval, interval_count: Number(p.recurring.interval_count ?? 1), usage_type: 'licensed' } : null,
      type: p.recurring ? 'recurring' : 'one_time',
      lookup_key: lookupKey,
      product: productId,
      metadata: p.metadata ?? {},
      created: clock(),
    }
    prices.set(price.id, price)
    return price
  }

  function priceByLookupKey(key: string): Obj {
    const price = [...prices.values()].find((p) => p.lookup_key === key && p.active)
    if (!price) throw invalid(`No active price with lookup key '${key}'`)
    return price
  }

  function createSession(p: Obj): Obj {
    if (p.mode !== 'subscription' && p.mode !== 'payment') throw invalid('Missing required param: mode.', 'mode')
    if (p.ui_mode && !['elements', 'embedded_page', 'form', 'hosted_page'].includes(p.ui_mode))
      throw invalid(`Invalid ui_mode: must be one of elements, embedded_page, form, or hosted_page`, 'ui_mode')
    const embedded = p.ui_mode === 'embedded_page'
    const redirect = p.redirect_on_completion ?? 'always'
    if (embedded && redirect !== 'never' && !p.return_url)
      throw invalid('You must provide `return_url` for embedded sessions unless redirect_on_completion is never.', 'return_url')
    if (embedded && p.success_url) throw invalid('`success_url` is not allowed with ui_mode embedded_page.', 'success_url')
    const items = Array.isArray(p.line_items) ? p.line_items : []
    if (items.length === 0) throw invalid('Missing required param: line_items.', 'line_items')
    const price = get(prices, 'price', items[0].price)
    if (p.customer) get(customers, 'customer', p.customer)
    const trialEnd = p.subscription_data?.trial_end === undefined ? null : Number(p.subscription_data.trial_end)
    if (trialEnd !== null && trialEnd < clock() + 48 * HOUR_S)
      throw invalid('The `trial_end` date has to be at least 2 days in the future.', 'subscription_data[trial_end]')
    const sid = id('cs_test')
    const session = {
      id: sid,
      object: 'checkout.session',
      client_secret: embedded ? `${sid}_secret_${randomBytes(10).toString('hex')}` : null,
      client_reference_id: p.client_reference_id ?? null,
      customer: p.customer ?? null,
      customer_email: p.customer_email ?? null,
      mode: p.mode,
      ui_mode: p.ui_mode ?? 'hosted_page',
      redirect_on_completion: embedded ? redirect : null,
      return_url: p.return_url ?? null,
      status: 'open',
      payment_status: 'unpaid',
      subscription: null,
      metadata: p.metadata ?? {},
      url: embedded ? null : `https://checkout.stripe.com/c/pay/${sid}`,
      created: clock(),
      // not in Stripe's object: kept for completing it
      _price: price.id,
      _trialEnd: trialEnd,
      _subscriptionMetadata: p.subscription_data?.metadata ?? {},
    }
    sessions.set(sid, session)
    return session
  }
  const publicSession = (s: Obj) => Object.fromEntries(Object.entries(s).filter(([k]) => !k.startsWith('_')))

  function item(subId: string, price: Obj, start: number, end: number): Obj {
    return {
      id: id('si'),
      object: 'subscription_item',
      price: { ...price },
      quantity: 1,
      subscription: subId,
      current_period_start: start,
      current_period_end: end,
    }
  }

  function invoiceFor(sub: Obj, status: 'paid' | 'open'): Obj {
    const it = sub.items.data[0]
    const amount = sub.status === 'trialing' ? 0 : it.price.unit_amount
    const invoice = {
      id: id('in'),
      object: 'invoice',
      customer: sub.customer,
      status,
      amount_due: amount,
      amount_paid: status === 'paid' ? amount : 0,
      currency: it.price.currency,
      period_start: it.current_period_start,
      period_end: it.current_period_end,
      parent: { type: 'subscription_details', subscription_details: { subscription: sub.id, metadata: sub.metadata } },
      lines: listOf([{ id: id('il'), object: 'line_item', amount, pricing: { price_details: { price: it.price.id } } }], `/v1/invoices/x/lines`),
      created: clock(),
    }
    invoices.set(invoice.id, invoice)
    sub.latest_invoice = invoice.id
    return invoice
  }

  // --- events ----------------------------------------------------------------------------
  function record(type: string, object: Obj): StripeEvent {
    const event: StripeEvent = {
      id: id('evt'),
      object: 'event',
      api_version: API_VERSION,
      created: clock(),
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type,
      data: { object: structuredClone(publicSession(object)) },
    }
    events.push(event)
    return event
  }

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

  // --- subscription life (what Stripe does, with the events it sends) ----------------------
  function complete(sessionId: string): StripeEvent[] {
    const session = get(sessions, 'checkout session', sessionId)
    if (session.status !== 'open') throw invalid(`Checkout session ${sessionId} is ${session.status}`)
    let customer = session.customer
    if (!customer) {
      const c = { id: id('cus'), object: 'customer', email: session.customer_email, metadata: {}, created: clock() }
      customers.set(c.id, c)
      customer = c.id
      session.customer = customer
    }
    const now = clock()
    const subId = id('sub')
    const trialEnd = session._trialEnd as number | null
    const price = get(prices, 'price', session._price)
    const sub: Obj = {
      id: subId,
      object: 'subscription',
      customer,
      status: trialEnd ? 'trialing' : 'active',
      cancel_at_period_end: false,
      cancel_at: null,
      canceled_at: null,
      ended_at: null,
      created: now,
      start_date: now,
      trial_start: trialEnd ? now : null,
      trial_end: trialEnd,
      metadata: session._subscriptionMetadata,
      latest_invoice: null,
      items: listOf([], `/v1/subscription_items?subscription=${subId}`),
    }
    sub.items.data.push(item(subId, price, now, trialEnd ?? now + MONTH_S))
    subscriptions.set(subId, sub)
    const invoice = invoiceFor(sub, 'paid')
    session.status = 'complete'
    session.payment_status = trialEnd ? 'no_payment_required' : 'paid'
    session.subscription = subId
    return [record('customer.subscription.created', sub), record('invoice.paid', invoice), record('checkout.session.completed', session)]
  }

  const sub = (subId: string) => get(subscriptions, 'subscription', subId)

  function setCancelAtPeriodEnd(subId: string, on: boolean): StripeEvent[] {
    const s = sub(subId)
    s.cancel_at_period_end = on
    s.cancel_at = on ? s.items.data[0].current_period_end : null
    s.canceled_at = on ? clock() : null
    return [record('customer.subscription.updated', s)]
  }

  function cancelImmediately(subId: string): StripeEvent[] {
    const s = sub(subId)
    s.status = 'canceled'
    s.canceled_at ??= clock()
    s.ended_at = clock()
    return [record('customer.subscription.deleted', s)]
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

  function liveSubscription(customer: string): Obj | undefined {
    return [...subscriptions.values()].filter((s) => s.customer === customer && s.status !== 'canceled').sort((a, b) => b.created - a.created)[0]
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
    },
  })
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
    failPayment(subId: string) {
      const s = sub(subId)
      const it = s.items.data[0]
      it.current_period_start = it.current_period_end
      it.current_period_end = it.current_period_end + MONTH_S
      s.status = 'past_due'
      const invoice = invoiceFor(s, 'open')
      return send([record('invoice.payment_failed', invoice), record('customer.subscription.updated', s)])
    },
    /** The current period ends: a canceling or unpaid subscription ends; a paying one renews for a month. */
    endPeriod(subId: string) {
      const s = sub(subId)
      // Stripe gave up retrying a past_due card: the subscription is canceled (the default setting)
      if (s.cancel_at_period_end || s.status === 'past_due' || s.status === 'unpaid') return send(cancelImmediately(subId))
      const it = s.items.data[0]
      it.current_period_start = it.current_period_end
      it.current_period_end = it.current_period_end + MONTH_S
      s.status = 'active'
      const invoice = invoiceFor(s, 'paid')
      return send([record('invoice.paid', invoice), record('customer.subscription.updated', s)])
    },
    /** A plan switch in the portal: the item moves to the price holding `lookupKey` (Stripe prorates). */
    switchPlan(subId: string, lookupKey: string) {
      const s = sub(subId)
      s.items.data[0].price = { ...priceByLookupKey(lookupKey) }
      return send([record('customer.subscription.updated', s)])
    },
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
