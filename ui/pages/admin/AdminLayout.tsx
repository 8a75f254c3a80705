// Frame of every admin page: the signed-in shell, the page heading and the section menu (spec §2
// Admin: Dashboard, Users, Logs, Database, Trends, Alerts, Revenue, Tools, Feedback).
import type { ReactNode } from 'react'
import { Link, useLocation } from 'wouter'
import { useSignals } from '@preact/signals-react/runtime'
import { AppShell } from '../../components/AppShell'
import { adminMenu } from '../../routes'
import { config } from '../../state'

export function AdminLayout({ title, badges, children }: { title: string; badges?: ReactNode; children: ReactNode }) {
  useSignals()
  const [location] = useLocation()
  return (
    <AppShell>
      <div className="admin-page">
        <header className="admin-header">
          <h1>{title}</h1>
          {badges}
        </header>
        <nav aria-label="Admin sections" className="admin-sections">
          {adminMenu(config.value.productSlug).map((item) => (
            <Link key={item.path} href={item.path} aria-current={location === item.path ? 'page' : undefined}>
              {item.label}
            </Link>
          ))}
        </nav>
        {children}
      </div>
    </AppShell>
  )
}
