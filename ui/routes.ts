// Every client route of spec §2. The server registers exactly these paths for the React app
// (src/app.ts), so an unknown path gets the app's not-found page only when listed here
// as a fallback, and /api/* is never shadowed.
export function clientRoutes(productSlug: string): string[] {
  const p = productSlug
  return [
    '/',
    '/login',
    '/signup',
    '/forgot-password',
    '/auth/forgot-password',
    '/reset-password',
    '/email-confirmation',
    '/check-email',
    '/auth/callback',
    '/unsubscribe',
    '/dashboard',
    '/dashboard/',
    `/dashboard/${p}`,
    `/dashboard/${p}/wts`,
    `/dashboard/${p}/wtb`,
    '/dashboard/gundeals',
    '/dashboard/subscription',
    '/archive',
    '/settings',
    '/settings/subscription',
    '/settings/account',
    '/admin',
    '/admin/users',
    '/admin/logs',
    '/admin/database',
    '/admin/trends',
    '/admin/alerts',
    '/admin/revenue',
    '/admin/tools',
    '/admin/feedback',
    '/404',
  ]
}
