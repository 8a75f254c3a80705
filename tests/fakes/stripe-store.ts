// The fake Stripe's state and what Stripe does to it (tests/fakes/stripe.ts serves it over HTTP):
// customers, products, prices (lookup keys), checkout sessions (embedded_page), subscriptions
// (current_period_end on the items, as at API version 2026-10-28.endive), invoices, and the event
// log. Each lifecycle step returns the events Stripe would send for it, already recorded.
import { randomBytes } from 'node:crypto'

export const API_VERSION = '2026-10-28.endive'
const MONTH_S = 30 * 24 * 60 * 60
const HOUR_S = 60 * 60

export type Obj = Record<string, any>
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

/** An API error in Stripe's shape: {error: {type, message, code?, param?}} with its status. */
export class StripeFail extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly extra: Obj = {},
  ) {
    super(message)
  }
}
const missing = (kind: string, id: string) => new StripeFail(404, `No such ${kind}: '${id}'`, { code: 'resource_missing', param: 'id' })
export const invalid = (message: string, param?: string) => new StripeFail(400, message, { param })

export type StripeStore = ReturnType<typeof createStripeStore>

/** `clock`: seconds since epoch. */
export function createStripeStore(clock: () => number) {
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
    if (p.customer && !customers.has(p.customer))
      throw new StripeFail(400, `No such customer: '${p.customer}'`, { code: 'resource_missing', param: 'customer' })
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

  /** The renewal's payment fails: the next period opens unpaid and the subscription is past_due. */
  function failPayment(subId: string): StripeEvent[] {
    const s = sub(subId)
    const it = s.items.data[0]
    it.current_period_start = it.current_period_end
    it.current_period_end = it.current_period_end + MONTH_S
    s.status = 'past_due'
    const invoice = invoiceFor(s, 'open')
    return [record('invoice.payment_failed', invoice), record('customer.subscription.updated', s)]
  }

  /** The current period ends: a canceling or unpaid subscription ends; a paying one renews for a month. */
  function endPeriod(subId: string): StripeEvent[] {
    const s = sub(subId)
    // Stripe gave up retrying a past_due card: the subscription is canceled (the default setting)
    if (s.cancel_at_period_end || s.status === 'past_due' || s.status === 'unpaid') return cancelImmediately(subId)
    const it = s.items.data[0]
    it.current_period_start = it.current_period_end
    it.current_period_end = it.current_period_end + MONTH_S
    s.status = 'active'
    const invoice = invoiceFor(s, 'paid')
    return [record('invoice.paid', invoice), record('customer.subscription.updated', s)]
  }

  /** A plan switch in the portal: the item moves to the price holding `lookupKey` (Stripe prorates). */
  function switchPlan(subId: string, lookupKey: string): StripeEvent[] {
    const s = sub(subId)
    s.items.data[0].price = { ...priceByLookupKey(lookupKey) }
    return [record('customer.subscription.updated', s)]
  }

  function liveSubscription(customer: string): Obj | undefined {
    return [...subscriptions.values()].filter((s) => s.customer === customer && s.status !== 'canceled').sort((a, b) => b.created - a.created)[0]
  }

  return {
    id,
    customers,
    products,
    prices,
    sessions,
    subscriptions,
    invoices,
    portalConfigs,
    portalSessions,
    events,
    get,
    sub,
    listOf,
    withProduct,
    publicSession,
    createProduct,
    createPrice,
    priceByLookupKey,
    createSession,
    complete,
    setCancelAtPeriodEnd,
    cancelImmediately,
    failPayment,
    endPeriod,
    switchPlan,
    liveSubscription,
  }
}
