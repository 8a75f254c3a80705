// /archive: archived matches per category (WTS, WTB, Gundeals), without archive controls.
import { useState } from 'react'
import type { Category } from '../../src/access/categories'
import { AppShell } from '../components/AppShell'
import { MatchList } from '../components/MatchList'

const TABS: [Category, string][] = [
  ['wts', 'WTS'],
  ['wtb', 'WTB'],
  ['gd', 'Gundeals'],
]

export function Archive() {
  const [tab, setTab] = useState<Category>('wts')
  return (
    <AppShell>
      <h1>Archive</h1>
      <div role="tablist" className="tabs">
        {TABS.map(([id, label]) => (
          <button key={id} type="button" role="tab" aria-selected={tab === id} className={tab === id ? '' : 'outline secondary'} onClick={() => setTab(id)}>
            {label}
          </button>
        ))}
      </div>
      <MatchList key={tab} category={tab} archived />
    </AppShell>
  )
}
