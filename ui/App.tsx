// Client routes of spec §2. The server lists the same paths (ui/routes.ts); anything else
// lands on the not-found page.
import { useEffect } from 'react'
import { useSignals } from '@preact/signals-react/runtime'
import { Redirect, Route, Switch, useParams } from 'wouter'
import { config, loadConfig } from './state'
import { Landing } from './pages/Landing'
import { NotFound } from './pages/NotFound'
import { Placeholder } from './pages/Placeholder'
import { Toaster } from './components/Toaster'
import { DashboardIndex } from './pages/dashboard/DashboardIndex'
import { ProductSection } from './pages/dashboard/ProductSection'
import { Gundeals } from './pages/dashboard/Gundeals'
import { Archive } from './pages/Archive'
import { Settings } from './pages/settings/Settings'
import { Unsubscribe } from './pages/Unsubscribe'

/** Routes under /dashboard/:product only exist for the configured product slug. */
function ProductRoute({ children }: { children: React.ReactNode }) {
  useSignals()
  const { product } = useParams<{ product: string }>()
  return product === config.value.productSlug ? <>{children}</> : <NotFound />
}

export function App() {
  useSignals()
  useEffect(() => {
    loadConfig()
  }, [])
  return (
    <>
    <Toaster />
    <Switch>
      <Route path="/" component={Landing} />
      <Route path="/login">{() => <Placeholder title="Sign in" />}</Route>
      <Route path="/signup">{() => <Placeholder title="Create an account" />}</Route>
      <Route path="/forgot-password">{() => <Placeholder title="Reset Password" />}</Route>
      <Route path="/auth/forgot-password">{() => <Placeholder title="Reset Password" />}</Route>
      <Route path="/reset-password">{() => <Placeholder title="Set New Password" />}</Route>
      <Route path="/email-confirmation">{() => <Placeholder title="Email confirmation" />}</Route>
      <Route path="/check-email">{() => <Placeholder title="Confirm Your Email" />}</Route>
      <Route path="/auth/callback">{() => <Placeholder title="Signing you in..." />}</Route>
      <Route path="/unsubscribe" component={Unsubscribe} />
      <Route path="/dashboard" component={DashboardIndex} />
      <Route path="/dashboard/" component={DashboardIndex} />
      <Route path="/dashboard/subscription">{() => <Placeholder title="Subscription" />}</Route>
      <Route path="/dashboard/gundeals" component={Gundeals} />
      <Route path="/dashboard/:product/wts">{() => <ProductRoute><ProductSection section="wts" /></ProductRoute>}</Route>
      <Route path="/dashboard/:product/wtb">{() => <ProductRoute><ProductSection section="wtb" /></ProductRoute>}</Route>
      <Route path="/dashboard/:product">
        {() => (
          <ProductRoute>
            <Redirect to={`/dashboard/${config.value.productSlug}/wts`} replace />
          </ProductRoute>
        )}
      </Route>
      <Route path="/archive" component={Archive} />
      <Route path="/settings">{() => <Redirect to="/settings/subscription" replace />}</Route>
      <Route path="/settings/subscription">{() => <Settings tab="subscription" />}</Route>
      <Route path="/settings/account">{() => <Settings tab="account" />}</Route>
      <Route path="/admin">{() => <Placeholder title="Admin Dashboard" />}</Route>
      <Route path="/admin/:section">{(params) => <Placeholder title={`Admin: ${params.section}`} />}</Route>
      <Route>{() => <NotFound />}</Route>
    </Switch>
    </>
  )
}
