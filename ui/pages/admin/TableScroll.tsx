// A table's box that scrolls sideways when the table is wider than the screen. It is focusable and
// named, so a keyboard user can reach it and scroll it with the arrow keys (axe
// `scrollable-region-focusable`; issue 30 §5).
import type { ReactNode } from 'react'

type Props = { label: string; children: ReactNode; className?: string }

export function TableScroll({ label, children, className = 'ad-table-scroll' }: Props) {
  return (
    <div className={className} tabIndex={0} role="region" aria-label={label}>
      {children}
    </div>
  )
}
