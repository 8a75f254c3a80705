// One category's page body: the 'Search … Posts' button with its dialog, and the match list.
import { useEffect, useState } from 'react'
import type { Category } from '../../../src/access/categories'
import { dialogTitle, SearchTermsDialog } from '../../components/SearchTermsDialog'
import { MatchList } from '../../components/MatchList'
import { loadTerms } from '../../terms'

export function CategoryPanel({ category, onRefreshed }: { category: Category; onRefreshed?: (at: Date) => void }) {
  const [open, setOpen] = useState(false)
  useEffect(() => {
    void loadTerms(category)
  }, [category])
  return (
    <>
      <div className="category-actions">
        <button type="button" onClick={() => setOpen(true)}>
          {dialogTitle(category)}
        </button>
      </div>
      <MatchList category={category} onRefreshed={onRefreshed} />
      <SearchTermsDialog category={category} open={open} onClose={() => setOpen(false)} />
    </>
  )
}
