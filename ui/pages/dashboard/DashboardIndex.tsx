// /dashboard and /dashboard/: the {product} WTS page, else deals, else 'No accessible content…'.
import { useSignals } from '@preact/signals-react/runtime'
import { Redirect } from 'wouter'
import { dashboardRedirect } from '../../../src/access/rules'
import { accessState } from '../../account'
import { AppShell } from '../../components/AppShell'
import { config } from '../../state'

export function DashboardIndex() {
  useSignals()
  const state = accessState.value
  if (state === null) return <AppShell>{null}</AppShell>
  const to = dashboardRedirect(state, new Date(), config.value.productSlug)
  if (typeof to === 'string') return <Redirect to={to} replace />
  return (
    <AppShell>
      <p role="alert" className="error-text">
        {to.error}
      </p>
    </AppShell>
  )
}
