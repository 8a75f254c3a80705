// /dashboard/{product}/wts and /wtb: the WTS/WTB switcher over one category page, behind the
// {product} gate (gd-only users go to the deals page; others see the section's denial text).
import { useSignals } from '@preact/signals-react/runtime'
import { Link, Redirect } from 'wouter'
import { forumPageGate } from '../../../src/access/rules'
import type { Category } from '../../../src/access/categories'
import { accessState } from '../../account'
import { AppShell } from '../../components/AppShell'
import { badgeCount } from '../../lib/badge'
import { config } from '../../state'
import { unread } from '../../unread'
import { CategoryPanel } from './CategoryPanel'
import { DashboardFrame } from './DashboardFrame'
import { Denied } from './Denied'

export function ProductSection({ section }: { section: Exclude<Category, 'gd'> }) {
  useSignals()
  const state = accessState.value
  const { productSlug, productName } = config.value
  if (state === null) return <AppShell>{null}</AppShell>
  const gate = forumPageGate(state, 'product', new Date(), productSlug, productName, section)
  if (gate.kind === 'redirect') return <Redirect to={gate.to} replace />
  return (
    <AppShell>
      {gate.kind === 'denied' ? (
        <Denied title={gate.title} message={gate.message} />
      ) : (
        <DashboardFrame>
          <h1 className="page-title">{productName}</h1>
          <nav className="section-switch" aria-label={`${productName} sections`}>
            {(['wts', 'wtb'] as const).map((s) => (
              <Link
                key={s}
                href={`/dashboard/${productSlug}/${s}`}
                className={`switch ${s === section ? 'active' : ''}`}
                aria-current={s === section ? 'page' : undefined}
              >
                {s.toUpperCase()}
                {badgeCount(unread.value[s]) ? <span className="badge unread-badge">{badgeCount(unread.value[s])}</span> : null}
              </Link>
            ))}
          </nav>
          <CategoryPanel key={section} category={section} />
        </DashboardFrame>
      )}
    </AppShell>
  )
}
