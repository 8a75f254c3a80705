// The client routes of ui/routes.ts, each behind its gate; anything else lands on the not-found page.
import { useEffect, type ReactNode } from 'react'
import { useSignals } from '@preact/signals-react/runtime'
import { Redirect, Route, Switch } from 'wouter'
import { uiRoutes, type PageKey, type UiRoute } from './routes'
import { config, loadConfig } from './state'
import { Landing } from './pages/Landing'
import { NotFound } from './pages/NotFound'
import { Toaster } from './components/Toaster'
import { DashboardIndex } from './pages/dashboard/DashboardIndex'
import { ProductSection } from './pages/dashboard/ProductSection'
import { Gundeals } from './pages/dashboard/Gundeals'
import { Archive } from './pages/Archive'
import { WhyNoAlert } from './pages/WhyNoAlert'
import { Settings } from './pages/settings/Settings'
import { Protected } from './components/Protected'
import { Login } from './pages/auth/Login'
import { Signup } from './pages/auth/Signup'
import { CheckEmail } from './pages/auth/CheckEmail'
import { EmailConfirmation } from './pages/auth/EmailConfirmation'
import { ForgotPassword } from './pages/auth/ForgotPassword'
import { ResetPassword } from './pages/auth/ResetPassword'
import { AuthCallback } from './pages/auth/AuthCallback'
import { Unsubscribe } from './pages/Unsubscribe'
import { AdminDashboard } from './pages/admin/Dashboard'
import { AdminUsers } from './pages/admin/Users'
import { AdminLogs } from './pages/admin/Logs'
import { AdminDatabase } from './pages/admin/Database'
import { AdminTrends } from './pages/admin/Trends'
import { AdminAlerts } from './pages/admin/Alerts'
import { AdminRevenue } from './pages/admin/Revenue'
import { AdminTools } from './pages/admin/Tools'
import { AdminFeedback } from './pages/admin/Feedback'
import { SubscriptionPage } from './pages/SubscriptionPage'

/** The component behind each page key of the route table. */
const PAGES: Record<PageKey, () => ReactNode> = {
  landing: () => <Landing />,
  login: () => <Login />,
  signup: () => <Signup />,
  'forgot-password': () => <ForgotPassword />,
  'reset-password': () => <ResetPassword />,
  'email-confirmation': () => <EmailConfirmation />,
  'check-email': () => <CheckEmail />,
  'auth-callback': () => <AuthCallback />,
  unsubscribe: () => <Unsubscribe />,
  dashboard: () => <DashboardIndex />,
  'product-wts': () => <ProductSection section="wts" />,
  'product-wtb': () => <ProductSection section="wtb" />,
  gundeals: () => <Gundeals />,
  archive: () => <Archive />,
  why: () => <WhyNoAlert />,
  'settings-subscription': () => <Settings tab="subscription" />,
  'settings-account': () => <Settings tab="account" />,
  subscription: () => <SubscriptionPage />,
  'admin-dashboard': () => <AdminDashboard />,
  'admin-users': () => <AdminUsers />,
  'admin-logs': () => <AdminLogs />,
  'admin-database': () => <AdminDatabase />,
  'admin-trends': () => <AdminTrends />,
  'admin-alerts': () => <AdminAlerts />,
  'admin-revenue': () => <AdminRevenue />,
  'admin-tools': () => <AdminTools />,
  'admin-feedback': () => <AdminFeedback />,
  'not-found': () => <NotFound />,
}

function content(route: UiRoute): ReactNode {
  if ('redirect' in route) return <Redirect to={route.redirect} replace />
  return PAGES[route.page]()
}

/** <Protected> gates in the spec's order (loading, sign-in, access, overlay); admin pages also need the role. */
function gated(route: UiRoute): ReactNode {
  if (route.gate === 'public') return content(route)
  return <Protected admin={route.gate === 'admin'}>{content(route)}</Protected>
}

export function App() {
  useSignals()
  useEffect(() => {
    void loadConfig() // never rejects: it keeps the defaults on failure
  }, [])
  return (
    <>
      <Toaster />
      <Switch>
        {uiRoutes(config.value.productSlug).map((r) => (
          <Route key={r.path} path={r.path}>
            {() => gated(r)}
          </Route>
        ))}
        <Route>{() => <NotFound />}</Route>
      </Switch>
    </>
  )
}
