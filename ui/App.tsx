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
import { Protected } from './components/Protected'
import { Login } from './pages/auth/Login'
import { Signup } from './pages/auth/Signup'
import { CheckEmail } from './pages/auth/CheckEmail'
import { EmailConfirmation } from './pages/auth/EmailConfirmation'
import { ForgotPassword } from './pages/auth/ForgotPassword'
import { ResetPassword } from './pages/auth/ResetPassword'
import { AuthCallback } from './pages/auth/AuthCallback'
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
      <Route path="/login" component={Login} />
      <Route path="/signup" component={Signup} />
      <Route path="/forgot-password" component={ForgotPassword} />
      <Route path="/auth/forgot-password" component={ForgotPassword} />
      <Route path="/reset-password" component={ResetPassword} />
      <Route path="/email-confirmation" component={EmailConfirmation} />
      <Route path="/check-email" component={CheckEmail} />
      <Route path="/auth/callback" component={AuthCallback} />
      <Route path="/unsubscribe" component={Unsubscribe} />
      {/* Signed-in area: <Protected> gates in the spec's order (loading, sign-in, access, overlay). */}
      <Route path="/dashboard">{() => <Protected><DashboardIndex /></Protected>}</Route>
      <Route path="/dashboard/">{() => <Protected><DashboardIndex /></Protected>}</Route>
      <Route path="/dashboard/subscription">{() => <Protected><Placeholder title="Subscription" /></Protected>}</Route>
      <Route path="/dashboard/gundeals">{() => <Protected><Gundeals /></Protected>}</Route>
      <Route path="/dashboard/:product/wts">{() => <ProductRoute><Protected><ProductSection section="wts" /></Protected></ProductRoute>}</Route>
      <Route path="/dashboard/:product/wtb">{() => <ProductRoute><Protected><ProductSection section="wtb" /></Protected></ProductRoute>}</Route>
      <Route path="/dashboard/:product">
        {() => (
          <ProductRoute>
            <Redirect to={`/dashboard/${config.value.productSlug}/wts`} replace />
          </ProductRoute>
        )}
      </Route>
      <Route path="/archive">{() => <Protected><Archive /></Protected>}</Route>
      <Route path="/settings">{() => <Redirect to="/settings/subscription" replace />}</Route>
      <Route path="/settings/subscription">{() => <Protected><Settings tab="subscription" /></Protected>}</Route>
      <Route path="/settings/account">{() => <Protected><Settings tab="account" /></Protected>}</Route>
      <Route path="/admin">{() => <Protected admin><Placeholder title="Admin Dashboard" /></Protected>}</Route>
      <Route path="/admin/:section">{(params) => <Protected admin><Placeholder title={`Admin: ${params.section}`} /></Protected>}</Route>
      <Route>{() => <NotFound />}</Route>
    </Switch>
    </>
  )
}
