// The posts a 'Fetch now' read and how each was classified (Admin → Logs → Sources): title (a link to the post),
// classified as, price, location, state. Used before saving (a preview) and on a saved source.
import type { PreviewPost } from '../../../../src/sources/feed-posts'
import { TableScroll } from '../TableScroll'

const price = (p: number | null) => (p === null ? '—' : `$${p.toLocaleString('en-US')}`)

export function SourcePosts({ posts, label }: { posts: PreviewPost[]; label: string }) {
  if (posts.length === 0) return <p className="muted">No posts in it.</p>
  return (
    <TableScroll label={label} className="table-scroll">
      <table className="admin-table source-posts" data-testid="source-posts">
        <thead>
          <tr>
            <th scope="col">Title</th>
            <th scope="col">Classified as</th>
            <th scope="col">Price</th>
            <th scope="col">Location</th>
            <th scope="col">State</th>
          </tr>
        </thead>
        <tbody>
          {posts.map((p) => (
            <tr key={p.id}>
              <td>
                <a href={p.url} target="_blank" rel="noopener noreferrer">
                  {p.title}
                </a>
                {p.error ? <span className="text-danger"> {p.error}</span> : null}
              </td>
              <td>{p.classifiedAs}</td>
              <td>{price(p.price)}</td>
              <td>{p.location ?? '—'}</td>
              <td>{p.state}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  )
}
