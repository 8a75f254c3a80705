// <Protected> in the spec's gating order and the landing header's states, rendered in happy-dom
// with the session signals set directly.
import { GlobalRegistrator } from '@happy-dom/global-registrator'
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'

GlobalRegistrator.register({ url: 'http://localhost:3000/dashboard' })
const { act } = await import('react')
const { createRoot } = await import('react-dom/client')
const session = await import('../../../ui/session')
const { me } = await import('../../../ui/account')
const { Protected } = await import('../../../ui/components/Protected')
const { LandingHeaderActions } = await import('../../../ui/components/LandingHeaderActions')
const { accessInfo } = await import('../../../src/access/rules')
const { configLoaded } = await import('../../../ui/state')
// Admin pages wait for /api/config (REQUIRE_ADMIN_2FA) before deciding: it has loaded here.
configLoaded.value = true

;(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true
const realFetch = globalThis.fetch
let container: HTMLElement
let root: ReturnType<typeof createRoot>

beforeAll(async () => {
  // The first initAuth() finds no session; afterwards the tests drive the signals themselves.
  globalThis.fetch = (async () => new Response('{"error":{"code":"UNAUTHORIZED","message":"x"}}', { status: 401 })) as never
  await session.initAuth()
})
afterAll(async () => {
  globalThis.fetch = realFetch
  await GlobalRegistrator.unregister()
})
beforeEach(() => {
  history.replaceState(null, '', '/dashboard')
  session.authError.value = null
  session.accessLoading.value = false
  session.accessNotice.value = null
})

const now = new Date()
const user = { id: 1, email: 'u@example.com', name: 'U' }
const withRole = (role: 'admin' | 'product+gd' | 'app_trial', expires: Date | null) => ({
  user,
  access: accessInfo({ role, subscriptionStatus: role === 'app_trial' ? 'trialing' : 'active', accessExpiresAt: expires }, now),
})

async function render(node: React.ReactNode) {
  container?.remove()
  container = document.createElement('div')
  document.body.appendChild(container)
  await act(async () => {
    root = createRoot(container)
    root.render(node)
  })
  const text = container.textContent ?? ''
  await act(async () => root.unmount())
  return text
}

type Case = {
  name: string
  status: 'loading' | 'authenticated' | 'unauthenticated' | 'error'
  setup?: () => void
  admin?: boolean
  shows?: string[]
  hides?: string[]
  path?: string
}
const cases: Case[] = [
  { name: 'auth loading', status: 'loading', shows: ['Initializing authentication...'], hides: ['CHILD'] },
  { name: 'not authenticated → /login', status: 'unauthenticated', hides: ['CHILD'], path: '/login' },
  {
    name: 'access info loading',
    status: 'authenticated',
    setup: () => (session.accessLoading.value = true),
    shows: ['Loading your account information...'],
    hides: ['CHILD'],
  },
  {
    name: 'auth error',
    status: 'authenticated',
    setup: () => (session.authError.value = 'Failed to load subscription details. Please try again or contact support if the issue persists.'),
    shows: ['Authentication Error', 'Failed to load subscription details.', 'Try Again', 'Contact Support', 'Sign Out & Return to Login'],
    hides: ['CHILD'],
  },
  {
    name: 'init timed out',
    status: 'error',
    setup: () => (session.authError.value = session.TEXT.initTimeout),
    shows: ['Authentication Error', 'Authentication initialization timed out. Please refresh the page.'],
  },
  {
    name: 'no access → page behind the overlay',
    status: 'authenticated',
    setup: () => (me.value = withRole('app_trial', new Date(now.getTime() - 1000))),
    shows: ['CHILD', 'Your Free Trial Has Ended', 'Available Plans', 'Logout', 'This server takes no payments: the administrator grants plans.'],
  },
  { name: 'access granted', status: 'authenticated', setup: () => (me.value = withRole('product+gd', null)), shows: ['CHILD'], hides: ['Available Plans'] },
  {
    name: 'cached data notice',
    status: 'authenticated',
    setup: () => ((me.value = withRole('product+gd', null)), (session.accessNotice.value = session.TEXT.usingCache)),
    shows: ['CHILD', 'Using cached data - connection issue'],
  },
  {
    name: 'admin page, not an admin → /dashboard',
    status: 'authenticated',
    admin: true,
    setup: () => (history.replaceState(null, '', '/admin'), (me.value = withRole('product+gd', null))),
    hides: ['CHILD'],
    path: '/dashboard',
  },
  { name: 'admin page, admin', status: 'authenticated', admin: true, setup: () => (me.value = withRole('admin', null)), shows: ['CHILD'] },
]

describe('<Protected> gating order', () => {
  for (const c of cases)
    test(c.name, async () => {
      session.authStatus.value = c.status
      c.setup?.()
      const text = await render(
        <Protected admin={c.admin}>
          <p>CHILD</p>
        </Protected>,
      )
      for (const s of c.shows ?? []) expect(text).toContain(s)
      for (const s of c.hides ?? []) expect(text).not.toContain(s)
      if (c.path) expect(location.pathname).toBe(c.path)
    })
})

describe('landing header states', () => {
  const header: { name: string; status: 'loading' | 'authenticated' | 'unauthenticated' | 'error'; setup?: () => void; shows: string[]; hides?: string[] }[] = [
    { name: 'loading', status: 'loading', shows: ['Loading...'] },
    { name: 'signed out', status: 'unauthenticated', shows: ['Start Free Trial', 'Login', 'Sign Up'], hides: ['Sign Out & Sign In Fresh'] },
    {
      name: 'account problem',
      status: 'error',
      setup: () => (session.authError.value = 'x'),
      shows: ['Account Issue - Click to Retry', 'Retry', 'Sign Out & Sign In Fresh'],
    },
    {
      name: 'active access',
      status: 'authenticated',
      setup: () => (me.value = withRole('product+gd', null)),
      shows: ['Go to Dashboard', 'Dashboard', 'Sign Out & Sign In Fresh'],
      hides: ['Start Free Trial'],
    },
    {
      name: 'no access',
      status: 'authenticated',
      setup: () => (me.value = withRole('app_trial', new Date(0))),
      shows: ['View Account', 'Account', 'Sign Out & Sign In Fresh'],
    },
  ]
  for (const c of header)
    test(c.name, async () => {
      session.authStatus.value = c.status
      c.setup?.()
      const text = await render(<LandingHeaderActions />)
      for (const s of c.shows) expect(text).toContain(s)
      for (const s of c.hides ?? []) expect(text).not.toContain(s)
    })
})
