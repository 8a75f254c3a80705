// Every client route of spec §2, in one table: its path, the gate in front of it, what it shows and,
// for the admin menu, its label. The server registers exactly these paths for the React app
// (clientRoutes), App.tsx renders them behind their gate, and AppNav builds the admin menu from the
// labels. Anything not listed is not found, on the server (404) and in the app alike; an unknown
// /admin/<section> goes to /admin.
//
// Data only: the server imports this file, so pages are named by key and ui/App.tsx maps the keys
// to components (a missing key fails the type check there).

/** 'user' pages sit behind <Protected>, 'admin' ones behind <Protected admin>. */
export type Gate = 'public' | 'user' | 'admin'

export type PageKey =
  | 'landing'
  | 'login'
  | 'signup'
  | 'forgot-password'
  | 'reset-password'
  | 'email-confirmation'
  | 'check-email'
  | 'auth-callback'
  | 'unsubscribe'
  | 'dashboard'
  | 'product-wts'
  | 'product-wtb'
  | 'gundeals'
  | 'archive'
  | 'why'
  | 'settings-subscription'
  | 'settings-account'
  | 'subscription'
  | 'admin-dashboard'
  | 'admin-users'
  | 'admin-logs'
  | 'admin-database'
  | 'admin-trends'
  | 'admin-alerts'
  | 'admin-revenue'
  | 'admin-tools'
  | 'admin-feedback'
  | 'not-found'

/**
 * What a route shows: a page or a redirect. Redirects are 'public': the page they lead to carries the gate.
 */
export type UiRoute = { path: string; gate: Gate; label?: string } & ({ page: PageKey } | { redirect: string })

export function uiRoutes(productSlug: string): UiRoute[] {
  // The {product} section exists only under the configured slug; any other slug is not found.
  const product = `/dashboard/${productSlug}`
  return [
    { path: '/', gate: 'public', page: 'landing' },
    { path: '/login', gate: 'public', page: 'login' },
    { path: '/signup', gate: 'public', page: 'signup' },
    { path: '/forgot-password', gate: 'public', page: 'forgot-password' },
    { path: '/auth/forgot-password', gate: 'public', page: 'forgot-password' },
    { path: '/reset-password', gate: 'public', page: 'reset-password' },
    { path: '/email-confirmation', gate: 'public', page: 'email-confirmation' },
    { path: '/check-email', gate: 'public', page: 'check-email' },
    { path: '/auth/callback', gate: 'public', page: 'auth-callback' },
    { path: '/unsubscribe', gate: 'public', page: 'unsubscribe' },
    { path: '/dashboard', gate: 'user', page: 'dashboard' },
    // Listed for the server: Bun's HTML routes drop trailing slashes, so its not-found handler serves this one.
    { path: '/dashboard/', gate: 'user', page: 'dashboard' },
    // App matches in table order: the fixed /dashboard/* pages win over a {product} slug.
    { path: '/dashboard/subscription', gate: 'user', page: 'subscription' },
    { path: '/dashboard/gundeals', gate: 'user', page: 'gundeals' },
    { path: `${product}/wts`, gate: 'user', page: 'product-wts' },
    { path: `${product}/wtb`, gate: 'user', page: 'product-wtb' },
    { path: product, gate: 'public', redirect: `${product}/wts` },
    { path: '/archive', gate: 'user', page: 'archive' },
    { path: '/why', gate: 'user', page: 'why', label: "Why didn't I get an alert?" },
    { path: '/settings', gate: 'public', redirect: '/settings/subscription' },
    { path: '/settings/subscription', gate: 'user', page: 'settings-subscription' },
    { path: '/settings/account', gate: 'user', page: 'settings-account' },
    { path: '/admin', gate: 'admin', page: 'admin-dashboard', label: 'Dashboard' },
    { path: '/admin/users', gate: 'admin', page: 'admin-users', label: 'Users' },
    { path: '/admin/logs', gate: 'admin', page: 'admin-logs', label: 'Logs' },
    { path: '/admin/database', gate: 'admin', page: 'admin-database', label: 'Database' },
    { path: '/admin/trends', gate: 'admin', page: 'admin-trends', label: 'Trends' },
    { path: '/admin/alerts', gate: 'admin', page: 'admin-alerts', label: 'Alerts' },
    { path: '/admin/revenue', gate: 'admin', page: 'admin-revenue', label: 'Revenue' },
    { path: '/admin/tools', gate: 'admin', page: 'admin-tools', label: 'Tools' },
    { path: '/admin/feedback', gate: 'admin', page: 'admin-feedback', label: 'Feedback' },
    // Any other admin section leads to the admin dashboard (whose gate sends non-admins on).
    { path: '/admin/:section', gate: 'public', redirect: '/admin' },
    { path: '/404', gate: 'public', page: 'not-found' },
  ]
}

/** The paths the server answers with the app. */
export function clientRoutes(productSlug: string): string[] {
  return uiRoutes(productSlug).map((r) => r.path)
}

/** The admin menu (spec §2): the labelled admin routes, in table order. */
export function adminMenu(productSlug: string): { label: string; path: string }[] {
  return uiRoutes(productSlug).flatMap((r) => (r.gate === 'admin' && r.label ? [{ label: r.label, path: r.path }] : []))
}
