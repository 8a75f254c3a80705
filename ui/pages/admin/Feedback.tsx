// /admin/feedback: the Help & Contact inbox. Filters All / Unread / Read / Resolved with counts;
// each message can be marked read or unread, resolved or unresolved, and answered by email from
// here (the reply is queued in the outbox and kept on the message). Fetching and state:
// ./feedback/useFeedback.ts; this file renders.
import { AdminLayout } from './AdminLayout'
import { Pagination } from '../../components/Pagination'
import { formatDate } from '../../lib/dates'
import { useFeedbackInbox, useFeedbackMessage, type Message, type State } from './feedback/useFeedback'

const FILTERS = [
  ['unread', 'Unread'],
  ['read', 'Read'],
  ['resolved', 'Resolved'],
  ['all', 'All'],
] as const
const STATE_LABEL: Record<State, string> = { unread: 'Unread', read: 'Read', resolved: 'Resolved' }

export function AdminFeedback() {
  const { filter, showFilter, setPage, inbox, error, reload } = useFeedbackInbox()

  return (
    <AdminLayout title="Feedback" badges={inbox && inbox.counts.unread > 0 ? <span className="badge unread-badge">{inbox.counts.unread} unread</span> : null}>
      <div className="feedback-filters" role="group" aria-label="Show messages">
        {FILTERS.map(([key, label]) => (
          <button key={key} type="button" className={filter === key ? '' : 'outline secondary'} aria-pressed={filter === key} onClick={() => showFilter(key)}>
            {label}
            {inbox ? ` (${inbox.counts[key]})` : ''}
          </button>
        ))}
      </div>
      {error ? (
        <p className="admin-form-error" role="alert">
          {error}
        </p>
      ) : null}
      {inbox === null ? (
        error ? null : (
          <p aria-busy="true">Loading messages...</p>
        )
      ) : inbox.messages.length === 0 ? (
        <p className="muted">{filter === 'unread' ? 'No unread messages.' : 'No messages here.'}</p>
      ) : (
        <ul className="feedback-list">
          {inbox.messages.map((m) => (
            <li key={m.id}>
              <FeedbackItem m={m} onChanged={() => void reload()} />
            </li>
          ))}
        </ul>
      )}
      {inbox ? <Pagination page={inbox.page} pages={inbox.pages} onPage={setPage} /> : null}
    </AdminLayout>
  )
}

function FeedbackItem({ m, onChanged }: { m: Message; onChanged: () => void }) {
  const { replying, setReplying, reply, setReply, busy, error, setState, send } = useFeedbackMessage(m, onChanged)
  const titleId = `feedback-${m.id}-title`
  return (
    <article className={`feedback-item ${m.state}`} aria-labelledby={titleId} data-testid="feedback-item">
      <div className="feedback-head">
        <h2 id={titleId}>{m.subject}</h2>
        <span className="badge">{STATE_LABEL[m.state]}</span>
      </div>
      <p>
        <small className="muted">
          From <a href={`mailto:${m.email}`}>{m.email}</a>
          {m.userId === null ? ' (signed out)' : ` (user #${m.userId})`} · {formatDate(m.createdAt)}
        </small>
      </p>
      <p className="feedback-message">{m.message}</p>
      {m.reply ? (
        <div>
          <small className="muted">Replied {m.repliedAt ? formatDate(m.repliedAt) : ''}</small>
          <p className="feedback-sent-reply">{m.reply}</p>
        </div>
      ) : null}
      {replying ? (
        <form
          className="feedback-reply"
          onSubmit={(e) => {
            e.preventDefault()
            if (reply.trim() && !busy) void send()
          }}
        >
          <label>
            Reply to {m.email}
            <textarea rows={5} maxLength={5000} value={reply} onChange={(e) => setReply(e.target.value)} autoFocus />
          </label>
          {error ? (
            <p className="admin-form-error" role="alert">
              {error}
            </p>
          ) : null}
          <footer>
            <button type="button" className="secondary" disabled={busy} onClick={() => setReplying(false)}>
              Cancel
            </button>
            <button type="submit" disabled={!reply.trim() || busy} aria-busy={busy || undefined}>
              Send reply
            </button>
          </footer>
        </form>
      ) : (
        <div className="feedback-actions">
          <button type="button" className="small" onClick={() => setReplying(true)}>
            Reply
          </button>
          {m.state === 'unread' ? (
            <button type="button" className="outline secondary small" onClick={() => void setState('read')}>
              Mark as read
            </button>
          ) : m.state === 'read' ? (
            <button type="button" className="outline secondary small" onClick={() => void setState('unread')}>
              Mark as unread
            </button>
          ) : null}
          {m.state === 'resolved' ? (
            <button type="button" className="outline secondary small" onClick={() => void setState('unresolved')}>
              Mark unresolved
            </button>
          ) : (
            <button type="button" className="outline secondary small" onClick={() => void setState('resolved')}>
              Mark resolved
            </button>
          )}
        </div>
      )}
    </article>
  )
}
