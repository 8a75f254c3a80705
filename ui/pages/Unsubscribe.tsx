// /unsubscribe?status=…&code=… (spec §2): where an email's unsubscribe link lands after
// GET /api/unsubscribe. 'success' confirms; anything else explains the code.
import { useSignals } from '@preact/signals-react/runtime'
import { Link, useSearch } from 'wouter'
import { config } from '../state'

export const UNSUBSCRIBE_TEXTS: Record<string, { title: string; body: string }> = {
  success: {
    title: "You've been unsubscribed",
    body: 'You will no longer receive match alert emails. Your search terms and in-app alerts stay as they are, and you can turn emails back on any time in Notification Settings.',
  },
  TOKEN_INVALID: {
    title: 'This unsubscribe link is invalid or has expired',
    body: 'Please use the link from a recent email, or sign in and change your email preferences in Notification Settings.',
  },
  MISSING_TOKEN: {
    title: 'This unsubscribe link is incomplete',
    body: 'The link is missing its token. Please open the full link from your email, or sign in and change your email preferences in Notification Settings.',
  },
  DB_ERROR: {
    title: "We couldn't update your preferences",
    body: 'A database problem stopped us from saving the change. Please try the link again in a few minutes.',
  },
  CONFIG_ERROR: {
    title: 'Unsubscribe is not available right now',
    body: 'This server is not configured to process unsubscribe links. Please contact support, or sign in and change your email preferences in Notification Settings.',
  },
  default: {
    title: 'Something went wrong',
    body: 'We could not process your unsubscribe request. Please try again, or sign in and change your email preferences in Notification Settings.',
  },
}

export function unsubscribeText(status: string | null, code: string | null) {
  if (status === 'success') return UNSUBSCRIBE_TEXTS.success!
  return UNSUBSCRIBE_TEXTS[code ?? ''] ?? UNSUBSCRIBE_TEXTS.default!
}

export function Unsubscribe() {
  useSignals()
  const params = new URLSearchParams(useSearch())
  const status = params.get('status')
  const code = params.get('code')
  const ok = status === 'success'
  const text = unsubscribeText(status, code)
  return (
    <main className="container centered">
      <article style={{ maxWidth: '32rem', margin: '0 auto' }} data-testid="unsubscribe" data-status={ok ? 'success' : 'error'}>
        <header>
          <strong>{config.value.appName}</strong>
        </header>
        <h1 style={{ fontSize: '1.5rem' }}>
          {ok ? '✓ ' : ''}
          {text.title}
        </h1>
        <p>{text.body}</p>
        {!ok && code ? (
          <p className="muted">
            <small>Error code: {code}</small>
          </p>
        ) : null}
        <footer>
          <Link href="/login" role="button">
            Go to Notification Settings
          </Link>{' '}
          <Link href="/" className="secondary">
            Home
          </Link>
        </footer>
      </article>
    </main>
  )
}
