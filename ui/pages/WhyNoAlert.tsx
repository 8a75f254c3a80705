// /why — "Why didn't I get an alert?" (issue 16 item 4): paste a Reddit post link or id, Dibs answers
// when it saw the post, its category, each of your terms with ✓/✗ and the reason, and — when it
// matched — what each channel did (GET /api/explain, src/explain/). Admins may ask for another user.
import { useEffect, useState, type FormEvent } from 'react'
import { useSignals } from '@preact/signals-react/runtime'
import type { Explanation } from '../../src/explain/service'
import { formatTime } from '../../src/lib/zoned-time'
import { isAdmin } from '../account'
import { api, ApiError, call } from '../client'
import { AppShell } from '../components/AppShell'
import { PostStateBadge, stateClass } from '../components/PostStateBadge'
import { Icon } from '../components/Icon'

// The answer's shape is the server's own (src/explain/service.ts), not a copy.
export type { Explanation }

/** Every time of one answer in the answer's zone, named (the server writes the channel outcomes so). */
const when = (iso: string, a: Explanation) => formatTime(Date.parse(iso), a.timeZone)

export function WhyNoAlert() {
  useSignals()
  const [link, setLink] = useState('')
  const [forUser, setForUser] = useState('')
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const [answer, setAnswer] = useState<Explanation | null>(null)

  const explain = async (url: string, who: string) => {
    setBusy(true)
    setError(null)
    // the browser's zone is the answer's zone when the user has set no quiet hours
    const tz = Intl.DateTimeFormat().resolvedOptions().timeZone
    const userId = isAdmin.value && who.trim() ? { userId: who.trim() } : {}
    try {
      setAnswer(await call(api.explain.get({ query: { url: url.trim(), tz, ...userId } })))
    } catch (err) {
      setAnswer(null)
      setError(err instanceof ApiError ? err.message : 'Could not reach Dibs. Please try again.')
    } finally {
      setBusy(false)
    }
  }
  const submit = (e: FormEvent) => {
    e.preventDefault()
    void explain(link, forUser)
  }
  // /why?url=<link>: a link from elsewhere (a match, a support answer) explains at once.
  useEffect(() => {
    const given = new URLSearchParams(window.location.search).get('url')
    if (!given) return
    setLink(given)
    void explain(given, '')
  }, [])

  return (
    <AppShell>
      <h1>Why didn't I get an alert?</h1>
      <p className="muted">Paste a post from a forum Dibs watches: it tells you what each of your terms made of it and where the alert went.</p>
      <form className="why-form" onSubmit={submit} noValidate>
        <label>
          Reddit post link or id
          <input
            name="post"
            value={link}
            required
            maxLength={2000}
            autoComplete="off"
            placeholder="https://www.reddit.com/r/…/comments/abc123/…"
            title="A Reddit post's link or id; for a forum's post, its thread link"
            aria-invalid={error ? 'true' : undefined}
            aria-describedby={error ? 'why-error' : undefined}
            onChange={(e) => setLink(e.target.value)}
          />
        </label>
        {isAdmin.value ? (
          <label>
            For user (email or id)
            <input name="user" value={forUser} maxLength={320} autoComplete="off" placeholder="you" onChange={(e) => setForUser(e.target.value)} />
          </label>
        ) : null}
        <button type="submit" aria-busy={busy} disabled={busy}>
          Explain
        </button>
      </form>
      {error ? (
        <p id="why-error" className="why-error" role="alert">
          {error}
        </p>
      ) : null}
      {answer ? <Answer a={answer} /> : null}
    </AppShell>
  )
}

function Answer({ a }: { a: Explanation }) {
  const { post } = a
  return (
    <section className="why-answer" aria-live="polite" aria-label="Explanation">
      <article className={`why-post${stateClass(post.state)}`} data-testid="why-post">
        <h2 className="why-post-title">
          <a href={post.url} target="_blank" rel="noopener noreferrer">
            {post.title}
          </a>{' '}
          <PostStateBadge state={post.state} />
        </h2>
        <p className="match-meta">
          <span>{post.source && !post.url.includes('reddit.com/') ? post.source : `r/${post.subreddit}`}</span>
          {post.author ? <span>u/{post.author}</span> : null}
          {post.flair ? <span className="badge">{post.flair}</span> : null}
          <time dateTime={post.createdAt}>posted {when(post.createdAt, a)}</time>
        </p>
        <dl className="why-facts">
          <dt>Seen by Dibs</dt>
          <dd>
            {post.seen}
            {post.ingestedAt ? ` (${when(post.ingestedAt, a)})` : ''}
          </dd>
          <dt>Category</dt>
          <dd>
            {a.category.label}
            {a.category.reason ? ` — ${a.category.reason}` : ''}
          </dd>
          {isAdmin.value ? (
            <>
              <dt>Terms of</dt>
              <dd>{a.user.email}</dd>
            </>
          ) : null}
        </dl>
      </article>

      <h2>Your terms</h2>
      {a.terms.length === 0 ? <p>{a.category.value === null ? 'No term is checked against this post.' : 'You have no terms in this category.'}</p> : null}
      <ul className="why-terms" data-testid="why-terms">
        {a.terms.map((t) => (
          <li key={t.id} className={t.alerts ? 'ok' : 'no'}>
            <span className="why-mark" aria-hidden="true">
              <Icon name={t.alerts ? 'check' : 'x'} />
            </span>
            <div>
              <code>{t.term}</code> <span className="visually-hidden">{t.alerts ? 'alerts' : 'does not alert'}</span>
              <ul className="why-reasons">
                {(t.matched ? t.reasons.slice(0, 1) : t.reasons).map((r) => (
                  <li key={r}>{r}</li>
                ))}
                {t.blockers.map((r) => (
                  <li key={r} className="why-blocker">
                    {r}
                  </li>
                ))}
              </ul>
            </div>
          </li>
        ))}
      </ul>
      {a.otherTerms.length ? (
        <ul className="why-other muted">
          {a.otherTerms.map((l) => (
            <li key={l}>{l}</li>
          ))}
        </ul>
      ) : null}

      {a.match ? (
        <>
          <h2>Where the alert went</h2>
          <p className="muted">
            Matched {when(a.match.matchedAt, a)} by {a.match.matchedTerms.join(', ')}.
          </p>
          <table className="why-channels">
            <thead>
              <tr>
                <th scope="col">Channel</th>
                <th scope="col">Outcome</th>
              </tr>
            </thead>
            <tbody>
              {a.match.channels.map((c, i) => (
                <tr key={`${c.channel}-${i}`} className={`status-${c.status}`}>
                  <th scope="row">{c.label}</th>
                  <td>{c.text}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      ) : null}
    </section>
  )
}
