// Previous / numbered pages with ellipses / Next (rule in ui/lib/pagination.ts).
import { pageItems } from '../lib/pagination'

export function Pagination({ page, pages, onPage }: { page: number; pages: number; onPage: (p: number) => void }) {
  if (pages <= 1) return null
  return (
    <nav className="pagination" aria-label="Pagination">
      <button type="button" className="outline secondary" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Previous
      </button>
      {pageItems(page, pages).map((item, i) =>
        item === 'ellipsis' ? (
          <span key={`e${i}`} className="ellipsis" aria-hidden="true">
            …
          </span>
        ) : (
          <button
            key={item}
            type="button"
            className={item === page ? '' : 'outline secondary'}
            aria-current={item === page ? 'page' : undefined}
            aria-label={`Page ${item}`}
            onClick={() => onPage(item)}
          >
            {item}
          </button>
        ),
      )}
      <button type="button" className="outline secondary" disabled={page >= pages} onClick={() => onPage(page + 1)}>
        Next
      </button>
    </nav>
  )
}
