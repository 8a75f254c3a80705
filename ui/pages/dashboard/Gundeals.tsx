// /dashboard/gundeals: deals terms and matches with 'Last refreshed'; {product}-only users go to WTS.
import { dealsName } from '../../state'
import { useState } from 'react'
import { useSignals } from '@preact/signals-react/runtime'
import { Redirect } from 'wouter'
import { forumPageGate, NO_DASHBOARD_PERMISSION } from '../../../src/access/rules'
import { accessState, isAdmin } from '../../account'
import { AppShell } from '../../components/AppShell'
import { formatDate } from '../../lib/dates'
import { config } from '../../state'
import { CategoryPanel } from './CategoryPanel'
import { DashboardFrame } from './DashboardFrame'
import { Denied } from './Denied'
import { AuthDebugPanel } from '../../components/AuthDebugPanel'

export function Gundeals() {
  useSignals()
  const [refreshed, setRefreshed] = useState<Date | null>(null)
  const state = accessState.value
  if (state === null) return <AppShell>{null}</AppShell>
  const gate = forumPageGate(state, 'gd', new Date(), config.value.productSlug, config.value.productName)
  if (gate.kind === 'redirect') return <Redirect to={gate.to} replace />
  return (
    <AppShell>
      {gate.kind === 'denied' ? (
        <Denied title={gate.title} message={gate.message} error={NO_DASHBOARD_PERMISSION} />
      ) : (
        <DashboardFrame>
          <h1 className="page-title">{dealsName()}</h1>
          <p className="muted" data-testid="last-refreshed">
            Last refreshed: {refreshed ? formatDate(refreshed) : 'Never'}
          </p>
          <CategoryPanel category="gd" onRefreshed={setRefreshed} />
          {isAdmin.value ? <AuthDebugPanel /> : null}
        </DashboardFrame>
      )}
    </AppShell>
  )
}
