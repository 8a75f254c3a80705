// The billing UI in happy-dom (issue 13 items 9–12): the subscription modal by context, its plan
// grid and embedded checkout (against a stand-in window.Stripe), every checkout and billing-portal
// text of spec §8, the success path after a payment and after a redirect (?session_id=), and the
// subscription page with billing on and off. The API is a fetch stub answering by path.
import { GlobalRegistrator } from '@happy-dom/global-registrator'
import { afterAll, afterEach, beforeEach, describe, expect, test } from 'bun:test'

// Stripe.js is never fetched: a script tag "loads" without running (the tests define window.Stripe).
GlobalRegistrator.register({
  url: 'http://localhost:3000/dashboard/subscription',
  settings: { disableJavaScriptFileLoading: true, handleDisabledFileLoadingAsSuccess: true },
})
const { act } = await import('react')
const { createRoot } = await import('react-dom/client')
const { me } = await import('../../ui/account')
const { config } = await import('../../ui/state')
const { toasts } = await import('../../ui/toast')
const { upgradeIntent } = await import('../../ui/modals')
const { accessInfo } = await import('../../src/access/rules')
const { UpgradeDialog } = await import('../../ui/components/UpgradeDialog')
const { SubscriptionPanel } = await import('../../ui/components/SubscriptionPanel')
const { AccessOverlay } = await import('../../ui/components/AccessOverlay')
const { handleCheckoutReturn, CHECKOUT_TEXT, PORTAL_TEXT } = await import('../../ui/billing')
const { resetStripeForTests } = await import('../../ui/stripe-js')

;(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true
const realFetch = globalThis.fetch
const realOpen = window.open
const DAY = 86_400_000
const user = { id: 7, email: 'sam@example.com', name: 'Sam' }
const BASE_CONFIG = { ...config.value }
const BILLING_ON = { billingEnabled: true, stripePublishableKey: 'pk_test_123', stripeJsUrl: 'http://stripe.test/stripe.js' }

type Route = (body: unknown) => { status?: number; json?: unknown; throws?: boolean }
let routes: Record<string, Route> = {}
let requests: { method: string; path: string; body: unknown }[] = []

function meFor(
  role: 'admin' | 'product' | 'gd' | 'product+gd' | 'app_trial' | 'trial_expired',
  opts: { expires?: Date | null; status?: string | null; customer?: string | null } = {},
) {
  return {
    user,
    access: accessInfo(
      {
        role,
        subscriptionStatus: opts.status ?? (role === 'app_trial' ? 'trialing' : 'active'),
        accessExpiresAt: opts.expires ?? null,
        stripeCustomerId: opts.customer ?? null,
      },
      new Date(),
    ),
  }
}

let container: HTMLElement
let root: ReturnType<typeof createRoot> | null = null
async function render(node: React.ReactNode) {
  container = document.createElement('div')
  document.body.appendChild(container)
  root = createRoot(container)
  await act(async () => root!.render(node))
}
const q = (sel: string) => document.querySelector(sel)
const text = () => document.body.textContent ?? ''
const toastTitles = () => toasts.value.map((t) => t.title)
const toastOf = (title: string) => toasts.value.find((t) => t.title === title)
const button = (name: string) =>
  [...document.querySelectorAll('button')].find((b) => b.textContent === name || b.getAttribute('aria-label') === name) as HTMLButtonElement | undefined
async function click(el: Element | undefined | null) {
  if (!el) throw new Error('nothing to click')
  await act(async () => (el as HTMLElement).click())
}
/** Lets fetches, Stripe's promises and React settle. */
async function settle(ms = 30) {
  await act(async () => {
    await new Promise((r) => setTimeout(r, ms))
  })
}
async function until(cond: () => boolean, ms = 4000) {
  const end = Date.now() + ms
  while (!cond()) {
    if (Date.now() > end) throw new Error('timed out; page text: ' + text().slice(0, 400))
    await settle(20)
  }
}

/** A stand-in for Stripe.js: the embedded checkout renders a heading and a Pay button that completes it. */
function standInStripe() {
  const seen = { keys: [] as string[], secrets: [] as string[], destroyed: 0, complete: null as null | (() => void) }
  ;(window as unknown as { Stripe?: unknown }).Stripe = (key: string) => {
    seen.keys.push(key)
    return {
      initEmbeddedCheckout: async (o: { fetchClientSecret: () => Promise<string>; onComplete: () => void }) => {
        seen.secrets.push(await o.fetchClientSecret())
        seen.complete = o.onComplete
        let host: HTMLElement | null = null
        return {
          mount(el: HTMLElement) {
            host = el
            el.innerHTML = '<h2>Stand-in Stripe Checkout</h2><button type="button" id="stand-in-pay">Pay</button>'
            el.querySelector('button')!.addEventListener('click', () => o.onComplete())
          },
          destroy() {
            seen.destroyed++
            if (host) host.innerHTML = ''
          },
        }
      },
    }
  }
  return seen
}

beforeEach(() => {
  routes = {}
  requests = []
  globalThis.fetch = (async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(String(input instanceof Request ? input.url : input), 'http://localhost:3000')
    const method = init?.method ?? 'GET'
    const body = typeof init?.body === 'string' ? JSON.parse(init.body) : null
    requests.push({ method, path: url.pathname, body })
    const route = routes[`${method} ${url.pathname}`]
    if (!route) return new Response(JSON.stringify({ error: { code: 'NOT_FOUND', message: 'Not found' } }), { status: 404 })
    const r = route(body)
    if (r.throws) throw new TypeError('Failed to fetch')
    return new Response(JSON.stringify(r.json ?? null), { status: r.status ?? 200, headers: { 'content-type': 'application/json' } })
  }) as never
  config.value = { ...BASE_CONFIG }
  upgradeIntent.value = false
  resetStripeForTests()
  delete (window as unknown as { Stripe?: unknown }).Stripe
  for (const s of document.querySelectorAll('script[data-stripe-js]')) s.remove()
  localStorage.clear()
  history.replaceState(null, '', '/dashboard/subscription')
})
afterEach(async () => {
  await act(async () => root?.unmount())
  root = null
  container?.remove()
  toasts.value = []
  window.open = realOpen
})
afterAll(async () => {
  // The signals are shared with the suites that run after this one in the same process.
  config.value = BASE_CONFIG
  me.value = undefined
  upgradeIntent.value = false
  localStorage.clear()
  globalThis.fetch = realFetch
  await GlobalRegistrator.unregister()
})

describe('the subscription modal', () => {
  test.each([
    ['a trial with 2 days left', meFor('app_trial', { expires: new Date(Date.now() + 2 * DAY - 60_000) }), 'Your Trial is Ending Soon'],
    ['an expired trial', meFor('app_trial', { expires: new Date(Date.now() - DAY) }), 'Your Free Trial Has Ended'],
    ['a canceled subscription', meFor('product', { status: 'canceled' }), 'Reactivate Your Subscription'],
    ['gifted access that ran out', meFor('gd', { status: 'gifted', expires: new Date(Date.now() - DAY) }), 'Your Gifted Access Has Expired'],
    ['a trial with 5 days left', meFor('app_trial', { expires: new Date(Date.now() + 5 * DAY - 60_000) }), 'Subscription'],
    ['a subscriber', meFor('product+gd'), 'Subscription'],
  ])('%s: the title is %p', async (_name, m, title) => {
    me.value = m
    await render(<UpgradeDialog onClose={() => {}} />)
    expect(q('#plans-title')!.textContent).toBe(title)
  })

  test('a close button only when dismissible', async () => {
    me.value = meFor('app_trial', { expires: new Date(Date.now() + 3 * DAY) })
    await render(<UpgradeDialog onClose={() => {}} />)
    expect(document.querySelectorAll('button[aria-label="Close"]').length).toBe(1)
    await act(async () => root!.unmount())
    root = null
    await render(<UpgradeDialog />)
    expect(document.querySelectorAll('button[aria-label="Close"]').length).toBe(0)
  })

  test('a trial: role badge, days left, three plan cards (bundle best value, saves $5), no Manage Subscription without a customer id', async () => {
    config.value = { ...BASE_CONFIG, ...BILLING_ON }
    me.value = meFor('app_trial', { expires: new Date(Date.now() + 2 * DAY - 60_000) })
    await render(<UpgradeDialog onClose={() => {}} />)
    expect(q('[data-testid="role-badge"]')!.textContent).toBe('Active Trial')
    expect(q('[data-testid="trial-status"]')!.textContent).toContain('2 days left')
    expect(text()).toContain('Available Plans')
    expect(document.querySelectorAll('.plan-card').length).toBe(3)
    expect(q('[data-testid="plan-product+gd"]')!.textContent).toContain('Best value')
    expect(q('[data-testid="plan-product+gd"]')!.textContent).toContain('Saves $5')
    expect(q('[data-testid="plan-product"] .best-badge')).toBeNull()
    expect(button('Manage Subscription')).toBeUndefined()
  })

  test('a subscriber with a customer id: details box and Manage Subscription, no plans; an admin sees no plans either', async () => {
    config.value = { ...BASE_CONFIG, ...BILLING_ON }
    routes['GET /api/billing/subscription'] = () => ({
      json: {
        billingEnabled: true,
        plan: 'product+gd',
        planName: 'GAFS + GD',
        status: 'active',
        statusText: 'Active',
        renewsAt: '2030-01-15T12:00:00Z',
        endsAt: null,
        cancelAtPeriodEnd: false,
        nextAmountCents: 2000,
        hasCustomer: true,
      },
    })
    me.value = meFor('product+gd', { customer: 'cus_1', expires: new Date('2030-01-15T12:00:00Z') })
    await render(<UpgradeDialog onClose={() => {}} />)
    await until(() => q('[data-testid="next-payment"]') !== null)
    expect(q('[data-testid="subscription-details"]')!.textContent).toContain('Active')
    expect(q('[data-testid="next-payment"]')!.textContent).toContain('$20')
    expect(button('Manage Subscription')).toBeDefined()
    expect(text()).not.toContain('Available Plans')
    await act(async () => root!.unmount())
    root = null
    me.value = meFor('admin')
    upgradeIntent.value = true
    await render(<UpgradeDialog onClose={() => {}} />)
    expect(q('[data-testid="role-badge"]')!.textContent).toBe('Admin')
    expect(text()).not.toContain('Available Plans')
  })

  test('Upgrade from a plan Stripe already bills: the cards switch plans in the billing portal, never a second checkout', async () => {
    config.value = { ...BASE_CONFIG, ...BILLING_ON }
    const tab = { closed: false, opener: {} as unknown, location: { href: 'about:blank' }, close() {} }
    window.open = (() => tab) as never
    routes['POST /api/billing/portal'] = () => ({ json: { portalUrl: 'https://billing.example/p/1' } })
    me.value = meFor('product', { customer: 'cus_3', expires: new Date(Date.now() + 20 * DAY) })
    upgradeIntent.value = true
    await render(<UpgradeDialog onClose={() => {}} />)
    expect(text()).toContain('Available Plans')
    expect(button('Subscribe')).toBeUndefined()
    expect((q('[data-testid="plan-product"] button') as HTMLButtonElement).disabled).toBe(true)
    await click(button('Switch to GAFS + GD in the billing portal'))
    await until(() => tab.location.href !== 'about:blank')
    expect(requests.some((r) => r.path === '/api/billing/checkout')).toBe(false)
    expect(tab.location.href).toBe('https://billing.example/p/1')
  })

  test('billing off: the plans are free, granted by the administrator, who is reached once (no price, no Stripe script)', async () => {
    me.value = meFor('app_trial', { expires: new Date(Date.now() + 3 * DAY) })
    await render(<UpgradeDialog onClose={() => {}} />)
    expect(document.querySelectorAll('[data-testid="contact-admin"]').length).toBe(1)
    expect(q('[data-testid="contact-admin"]')!.textContent).toContain('This server takes no payments: the administrator grants plans.')
    expect([...document.querySelectorAll('.plan-card .price')].map((n) => n.textContent)).toEqual(Array(3).fill('Free when the administrator grants it'))
    expect(button('Subscribe')).toBeUndefined()
    expect(document.querySelectorAll('script').length).toBe(0)
    expect(requests.filter((r) => r.path.startsWith('/api/billing'))).toEqual([])
  })
})

describe('the embedded checkout', () => {
  const trial = () => meFor('app_trial', { expires: new Date(Date.now() + 3 * DAY) })

  test('a plan card opens its checkout in the modal; Back to Plan Selection destroys it; Pay → Payment Successful!, refresh, Subscription Activated!, closed after 2 s', async () => {
    config.value = { ...BASE_CONFIG, ...BILLING_ON }
    const stripe = standInStripe()
    routes['POST /api/billing/checkout'] = () => ({ json: { client_secret: 'cs_test_secret_1' } })
    routes['GET /api/me'] = () => ({ json: meFor('product+gd', { customer: 'cus_9', expires: new Date(Date.now() + 30 * DAY) }) })
    me.value = trial()
    let closed = 0
    await render(<UpgradeDialog onClose={() => closed++} />)
    await click(button('Subscribe to GAFS + GD'))
    await until(() => text().includes('Stand-in Stripe Checkout'))
    expect(requests.find((r) => r.path === '/api/billing/checkout')!.body).toEqual({
      planType: 'product+gd',
      returnUrl: 'http://localhost:3000/dashboard/subscription',
    })
    expect(stripe.keys).toEqual(['pk_test_123'])
    expect(stripe.secrets).toEqual(['cs_test_secret_1'])
    expect(text()).not.toContain('Available Plans')
    expect(document.activeElement?.textContent).toBe('Back to Plan Selection')

    await click(button('Back to Plan Selection'))
    expect(stripe.destroyed).toBe(1)
    expect(text()).toContain('Available Plans')
    expect(document.activeElement?.getAttribute('aria-label')).toBe('Subscribe to GAFS + GD')

    await click(button('Subscribe to GAFS'))
    await until(() => text().includes('Stand-in Stripe Checkout'))
    expect(requests.filter((r) => r.path === '/api/billing/checkout').at(-1)!.body).toMatchObject({ planType: 'product' })
    await click(document.getElementById('stand-in-pay'))
    await until(() => toastTitles().includes('Subscription Activated!'))
    expect(toastTitles()).toContain('Payment Successful!')
    expect(toastOf('Subscription Activated!')!.description).toBe('Your subscription is now active. Welcome!')
    expect(q('[data-testid="checkout-outcome"]')!.textContent).toContain('Subscription Activated!')
    // the server is asked to read the subscription from Stripe before the access is fetched
    const paths = requests.map((r) => `${r.method} ${r.path}`)
    expect(paths.indexOf('POST /api/billing/refresh')).toBeGreaterThan(-1)
    expect(paths.indexOf('POST /api/billing/refresh')).toBeLessThan(paths.indexOf('GET /api/me'))
    expect(me.value!.access.userRole).toBe('product+gd')
    expect(closed).toBe(0)
    await settle(2100)
    expect(closed).toBe(1)
  })

  test("a refresh that fails after paying: 'Subscription Active' / 'Your subscription is active. Please refresh the page if needed.'", async () => {
    config.value = { ...BASE_CONFIG, ...BILLING_ON }
    standInStripe()
    routes['POST /api/billing/checkout'] = () => ({ json: { client_secret: 'cs_2' } })
    routes['GET /api/me'] = () => ({ status: 503, json: { error: { code: 'UNAVAILABLE', message: 'down' } } })
    me.value = trial()
    await render(<UpgradeDialog onClose={() => {}} />)
    await click(button('Subscribe to GunDeals (GD)'))
    await until(() => document.getElementById('stand-in-pay') !== null)
    await click(document.getElementById('stand-in-pay'))
    await until(() => toastTitles().includes('Subscription Active'), 6000)
    expect(toastOf('Subscription Active')!.description).toBe('Your subscription is active. Please refresh the page if needed.')
    expect(toastTitles()).not.toContain('Subscription Activated!')
    expect(q('[data-testid="checkout-outcome"]')!.textContent).toContain(CHECKOUT_TEXT.paymentUnrefreshed)
  })

  test('the plan shows a moment after paying: the access is read again until it does; never showing it is not Activated', async () => {
    const { completePayment, refreshAfterPayment } = await import('../../ui/billing')
    let reads = 0
    routes['GET /api/me'] = () => (++reads < 3 ? { json: trial() } : { json: meFor('gd', { customer: 'cus_7' }) })
    me.value = trial()
    let outcome: Awaited<ReturnType<typeof completePayment>> | null = null
    await act(async () => {
      outcome = await completePayment(() => refreshAfterPayment({ delayMs: 50 }))
    })
    expect(reads).toBe(3)
    expect(outcome!).toMatchObject({ title: 'Subscription Activated!', refreshed: true })
    routes['GET /api/me'] = () => ({ json: trial() })
    await act(async () => {
      outcome = await completePayment(() => refreshAfterPayment({ attempts: 3, delayMs: 50 }))
    })
    expect(outcome!).toMatchObject({
      title: 'Subscription Active',
      description: 'Your subscription is active. Please refresh the page if needed.',
      refreshed: false,
    })
  })

  test.each([
    [
      'the server fails',
      { status: 500, json: { error: { code: 'INTERNAL', message: 'Internal error' } } },
      'Failed to start checkout process. Please try again.',
      'Checkout Error',
    ],
    ['the server is unreachable', { throws: true }, 'Failed to start checkout process. Please try again.', 'Checkout Error'],
    ['no client secret comes back', { json: { url: 'x' } }, 'Invalid response from checkout service', 'Checkout Error'],
    [
      'the session ended',
      { status: 401, json: { error: { code: 'UNAUTHORIZED', message: 'Authentication required' } } },
      'Please log in to subscribe.',
      'Authentication required',
    ],
    [
      'the server refuses (same plan)',
      { status: 409, json: { error: { code: 'CONFLICT', message: 'You already have this plan.' } } },
      'You already have this plan.',
      'Checkout Error',
    ],
  ])('when %s: Error loading checkout, the text, and a toast', async (_n, reply, message, toastTitle) => {
    config.value = { ...BASE_CONFIG, ...BILLING_ON }
    const stripe = standInStripe()
    routes['POST /api/billing/checkout'] = () => reply
    me.value = trial()
    await render(<UpgradeDialog onClose={() => {}} />)
    await click(button('Subscribe to GAFS'))
    await until(() => q('.checkout-error') !== null)
    expect(q('.checkout-error')!.textContent).toContain('Error loading checkout')
    expect(q('.checkout-error')!.textContent).toContain(message)
    expect(toastTitles()).toContain(toastTitle)
    expect(stripe.keys).toEqual([])
    expect(button('Back to Plan Selection')).toBeDefined()
  })

  test("Stripe.js that will not load: 'Something went wrong with the checkout process. Please try again.'; Try Again injects it once more", async () => {
    config.value = { ...BASE_CONFIG, ...BILLING_ON }
    routes['POST /api/billing/checkout'] = () => ({ json: { client_secret: 'cs_3' } })
    me.value = trial()
    await render(<UpgradeDialog onClose={() => {}} />)
    await click(button('Subscribe to GAFS'))
    // The tag "loads" (file loading is off here) but defines no window.Stripe.
    await until(() => q('.checkout-error') !== null)
    expect(q('.checkout-error')!.textContent).toContain('Something went wrong with the checkout process. Please try again.')
    expect(toastTitles()).toContain('Checkout Error')
    expect(document.querySelectorAll('script[data-stripe-js]').length).toBe(0)
    // Now it would load: window.Stripe exists once a tag with the configured URL was added.
    standInStripe()
    const ctor = (window as unknown as { Stripe?: unknown }).Stripe
    const head = document.head
    const append = head.appendChild
    const injected: string[] = []
    head.appendChild = function <T extends Node>(this: HTMLHeadElement, node: T): T {
      if (node instanceof HTMLScriptElement) injected.push(node.src)
      return append.call(this, node) as T
    }
    Object.defineProperty(window, 'Stripe', { configurable: true, get: () => (injected.includes('http://stripe.test/stripe.js') ? ctor : undefined) })
    try {
      await click(button('Try Again'))
      await until(() => text().includes('Stand-in Stripe Checkout'))
    } finally {
      head.appendChild = append
    }
    expect(injected).toEqual(['http://stripe.test/stripe.js'])
  })

  test('the blocking overlay of an expired trial opens the checkout from its plan cards', async () => {
    config.value = { ...BASE_CONFIG, ...BILLING_ON }
    standInStripe()
    routes['POST /api/billing/checkout'] = () => ({ json: { client_secret: 'cs_4' } })
    me.value = meFor('app_trial', { expires: new Date(Date.now() - DAY) })
    await render(<AccessOverlay />)
    expect(q('#access-overlay-title')!.textContent).toBe('Your Free Trial Has Ended')
    await click(button('Subscribe to GAFS + GD'))
    await until(() => text().includes('Stand-in Stripe Checkout'))
    expect(button('Logout')).toBeDefined()
  })

  test('a payment reported after its box is gone (the webhook lifted the overlay first) still ends in Subscription Activated!', async () => {
    config.value = { ...BASE_CONFIG, ...BILLING_ON }
    const stripe = standInStripe()
    routes['POST /api/billing/checkout'] = () => ({ json: { client_secret: 'cs_6' } })
    routes['GET /api/me'] = () => ({ json: meFor('product', { customer: 'cus_6' }) })
    me.value = meFor('app_trial', { expires: new Date(Date.now() - DAY) })
    await render(<AccessOverlay />)
    await click(button('Subscribe to GAFS'))
    await until(() => text().includes('Stand-in Stripe Checkout'))
    await act(async () => root!.unmount())
    root = null
    expect(stripe.destroyed).toBe(1)
    await act(async () => stripe.complete!())
    await until(() => toastTitles().includes('Subscription Activated!'))
    expect(toastTitles()).toContain('Payment Successful!')
  })

  test('back from a redirecting checkout (?session_id=): the success path runs once and the parameter leaves the address', async () => {
    routes['GET /api/me'] = () => ({ json: meFor('gd', { customer: 'cus_5' }) })
    me.value = trial()
    history.replaceState(null, '', '/dashboard/gundeals?session_id=cs_test_abc&tab=x')
    let outcome: Awaited<ReturnType<typeof handleCheckoutReturn>> = null
    await act(async () => {
      outcome = await handleCheckoutReturn()
    })
    expect(outcome!).toMatchObject({ title: 'Subscription Activated!', refreshed: true })
    expect(window.location.pathname + window.location.search).toBe('/dashboard/gundeals?tab=x')
    expect(toastTitles()).toEqual(['Subscription Activated!', 'Payment Successful!'])
    expect(handleCheckoutReturn()).toBeNull()
  })
})

describe('Manage Subscription (the billing portal)', () => {
  function fakeTab() {
    const tab = {
      closed: false,
      opener: {} as unknown,
      location: { href: 'about:blank' },
      close() {
        tab.closed = true
      },
    }
    window.open = (() => tab) as never
    return tab
  }
  const subscriber = () => meFor('product', { customer: 'cus_1' })
  beforeEach(() => {
    config.value = { ...BASE_CONFIG, ...BILLING_ON }
  })

  test('opens the portal URL in a new tab', async () => {
    const tab = fakeTab()
    routes['POST /api/billing/portal'] = () => ({ json: { portalUrl: 'https://billing.example/session/abc' } })
    me.value = subscriber()
    await render(<SubscriptionPanel />)
    await click(button('Manage Subscription'))
    await until(() => tab.location.href !== 'about:blank')
    expect(tab.location.href).toBe('https://billing.example/session/abc')
    expect(tab.opener).toBeNull()
    expect(tab.closed).toBe(false)
    expect(toasts.value).toEqual([])
  })

  test.each([
    [
      'no subscription',
      {
        status: 404,
        json: { error: { code: 'NO_SUBSCRIPTION', message: PORTAL_TEXT.noSubscriptionDescription, details: { title: 'No Subscription to Manage' } } },
      },
      'No Subscription to Manage',
      'You need to subscribe to a plan first before you can manage your subscription.',
    ],
    [
      'a server error',
      { status: 502, json: { error: { code: 'STRIPE', message: 'The payment provider is unreachable.' } } },
      'Error',
      'The payment provider is unreachable.',
    ],
    ['no answer', { throws: true }, 'Error', 'Could not open the billing portal. Please try again later.'],
    ['no portal URL', { json: {} }, 'Error', 'Could not retrieve billing portal URL.'],
    ['a lost session', { status: 401, json: { error: { code: 'UNAUTHORIZED', message: 'Authentication required' } } }, 'Error', 'User session not found'],
  ])('%s: a destructive toast with the §8 text, and the blank tab closes', async (_n, reply, title, description) => {
    const tab = fakeTab()
    routes['POST /api/billing/portal'] = () => reply
    me.value = subscriber()
    await render(<SubscriptionPanel />)
    await click(button('Manage Subscription'))
    await until(() => toasts.value.length > 0)
    expect(toasts.value[0]).toMatchObject({ title, description, variant: 'destructive' })
    expect(tab.closed).toBe(true)
  })
})

describe('the subscription page', () => {
  test('billing off, a plan granted by the administrator: plan, status, date; no Stripe script, no billing calls', async () => {
    me.value = meFor('product+gd', { status: 'gifted', expires: new Date('2031-03-04T12:00:00Z') })
    await render(<SubscriptionPanel />)
    expect(q('[data-testid="current-plan"]')!.textContent).toBe('GAFS + GD')
    expect(q('[data-testid="status-text"]')!.textContent).toBe('Active')
    expect(q('[data-testid="subscription-details"]')!.textContent).toContain('Access until')
    expect(text()).toContain('Your plan is managed by the administrator.')
    expect(document.querySelectorAll('script').length).toBe(0)
    expect(requests).toEqual([])
    // Billing off, Manage Subscription opens the subscription modal as before; no portal call.
    const { modal } = await import('../../ui/modals')
    await click(button('Manage Subscription'))
    expect(modal.value).toBe('subscription')
    modal.value = null
    expect(requests).toEqual([])
  })

  test('billing on, no customer yet: Manage Subscription asks the server, which answers No Subscription to Manage; no tab opens first', async () => {
    config.value = { ...BASE_CONFIG, ...BILLING_ON }
    routes['GET /api/billing/subscription'] = () => ({
      json: {
        billingEnabled: true,
        plan: 'gd',
        planName: 'GunDeals (GD)',
        status: 'gifted',
        statusText: 'Active',
        renewsAt: null,
        endsAt: null,
        cancelAtPeriodEnd: false,
        nextAmountCents: null,
        hasCustomer: false,
      },
    })
    me.value = meFor('gd', { status: 'gifted', expires: new Date(Date.now() + 9 * DAY) })
    await render(<SubscriptionPanel />)
    let opened = 0
    window.open = (() => (opened++, null)) as never
    routes['POST /api/billing/portal'] = () => ({
      status: 404,
      json: { error: { code: 'NO_SUBSCRIPTION', message: PORTAL_TEXT.noSubscriptionDescription, details: { title: 'No Subscription to Manage' } } },
    })
    await click(button('Manage Subscription'))
    await until(() => toasts.value.length > 0)
    expect(toasts.value[0]).toMatchObject({
      title: 'No Subscription to Manage',
      description: 'You need to subscribe to a plan first before you can manage your subscription.',
      variant: 'destructive',
    })
    expect(opened).toBe(0)
  })

  test('billing off, a trial ending tomorrow: the trial-concluding section with one line per plan (no price) and how to get access', async () => {
    me.value = meFor('app_trial', { expires: new Date(Date.now() + DAY - 60_000) })
    await render(<SubscriptionPanel />)
    const section = q('[data-testid="trial-concluding"]')!
    expect(section.querySelector('h2')!.textContent).toBe('Your Trial is Ending Soon')
    expect([...section.querySelectorAll('.plan-line-text')].map((l) => l.textContent)).toEqual(['GAFS', 'GunDeals (GD)', 'GAFS + GD'])
    expect(section.textContent).toContain('This server takes no payments: the administrator grants plans.')
    expect(section.textContent).not.toContain('Choose a plan')
    expect(section.querySelector('[data-testid="contact-admin"] details')).not.toBeNull()
    expect([...section.querySelectorAll('button')].map((b) => b.textContent)).toEqual(['Send Message']) // no Subscribe
    expect(document.querySelectorAll('script').length).toBe(0)
  })

  test('a trial with 5 days left has no trial-concluding section; Choose a Plan opens the modal with plans', async () => {
    config.value = { ...BASE_CONFIG, ...BILLING_ON }
    const { modal } = await import('../../ui/modals')
    routes['GET /api/billing/subscription'] = () => ({
      json: {
        billingEnabled: true,
        plan: null,
        planName: null,
        status: 'trialing',
        statusText: 'Trial Active',
        renewsAt: null,
        endsAt: null,
        cancelAtPeriodEnd: false,
        nextAmountCents: null,
        hasCustomer: false,
      },
    })
    me.value = meFor('app_trial', { expires: new Date(Date.now() + 5 * DAY - 60_000) })
    await render(<SubscriptionPanel />)
    expect(q('[data-testid="trial-concluding"]')).toBeNull()
    expect(q('[data-testid="subscription-details"]')!.textContent).toContain('Trial ends')
    await click(button('Choose a Plan'))
    expect(modal.value).toBe('subscription')
    expect(upgradeIntent.value).toBe(true)
    modal.value = null
  })

  test('billing on, an expired trial: a plan line opens its checkout in place', async () => {
    config.value = { ...BASE_CONFIG, ...BILLING_ON }
    standInStripe()
    routes['POST /api/billing/checkout'] = () => ({ json: { client_secret: 'cs_5' } })
    me.value = meFor('trial_expired', { expires: new Date(Date.now() - DAY) })
    await render(<SubscriptionPanel />)
    expect(q('[data-testid="trial-concluding"] h2')!.textContent).toBe('Your Free Trial Has Ended')
    await click(button('Subscribe to GunDeals (GD)'))
    await until(() => text().includes('Stand-in Stripe Checkout'))
    expect(requests.find((r) => r.path === '/api/billing/checkout')!.body).toMatchObject({ planType: 'gd' })
  })

  test.each([
    [
      'renewing',
      { status: 'active', renewsAt: '2030-01-15T12:00:00Z', endsAt: null, cancelAtPeriodEnd: false, nextAmountCents: 1000, statusText: 'Active' },
      'active',
      ['Active', 'Renews on', 'Next payment', '$10'],
      ['Access ends'],
    ],
    [
      'canceled at period end',
      {
        status: 'active_until_period_end',
        renewsAt: null,
        endsAt: '2030-01-15T12:00:00Z',
        cancelAtPeriodEnd: true,
        nextAmountCents: null,
        statusText: 'Canceled - Active Until Period End',
      },
      'active_until_period_end',
      ['Canceled - Active Until Period End', 'Access ends'],
      ['Renews on', 'Next payment'],
    ],
  ])('billing on, a Stripe subscriber %s: status text, date, amount, Manage Subscription and Change Plan', async (_n, summary, status, shows, hides) => {
    config.value = { ...BASE_CONFIG, ...BILLING_ON }
    routes['GET /api/billing/subscription'] = () => ({ json: { billingEnabled: true, plan: 'gd', planName: 'GunDeals (GD)', hasCustomer: true, ...summary } })
    me.value = meFor('gd', { customer: 'cus_2', status, expires: new Date('2030-01-15T12:00:00Z') })
    await render(<SubscriptionPanel />)
    await until(() => q('[data-testid="current-plan"]')!.textContent === 'GunDeals (GD)')
    const details = q('[data-testid="subscription-details"]')!.textContent!
    for (const s of shows) expect(details).toContain(s)
    for (const s of hides) expect(details).not.toContain(s)
    expect(button('Manage Subscription')).toBeDefined()
    expect(button('Change Plan')).toBeDefined()
    expect(document.querySelectorAll('script').length).toBe(0)
  })
})
