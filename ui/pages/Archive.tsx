// /archive: archived matches per category (WTS, WTB, Gundeals): a search over titles, authors and
// matched terms, and 'Restore' on each card (back to its list).
import { categoryLabel } from '../terms'
import { useEffect, useState } from 'react'
import type { Category } from '../../src/access/categories'
import { AppShell } from '../components/AppShell'
import { MatchList } from '../components/MatchList'

const TABS: Category[] = ['wts', 'wtb', 'gd']

export function Archive() {
  const [tab, setTab] = useState<Category>('wts')
  const [text, setText] = useState('')
  const [query, setQuery] = useState('')
  useEffect(() => {
    const t = setTimeout(() => setQuery(text), 250)
    return () => clearTimeout(t)
  }, [text])
  return (
    <AppShell>
      <h1>Archive</h1>
      <div role="tablist" className="tabs">
        {TABS.map((id) => [id, categoryLabel(id)] as const).map(([id, label]) => (
          <button key={id} type="button" role="tab" aria-selected={tab === id} className={tab === id ? '' : 'outline secondary'} onClick={() => setTab(id)}>
            {label}
          </button>
        ))}
      </div>
      <label className="archive-search">
        Search archive
        <input type="search" value={text} maxLength={100} placeholder="Search titles, authors and terms" onChange={(e) => setText(e.target.value)} />
      </label>
      <MatchList key={tab} category={tab} archived query={query} />
    </AppShell>
  )
}
