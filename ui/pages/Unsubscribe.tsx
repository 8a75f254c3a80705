// /unsubscribe (spec §2). An email's unsubscribe link (GET /api/unsubscribe) lands here with
// ?token=…: the page says what will stop and changes nothing until its one button POSTs (link
// scanners and mail previews open links too). The answer moves to ?status=…&code=…: 'success'
// confirms; anything else explains the code.
import { useState } from 'react'
import { useSignals } from '@preact/signals-react/runtime'
import { Link, useLocation, useSearch } from 'wouter'
import { api, ApiError, call } from '../client'
import { config } from '../state'
import { Icon } from '../components/Icon'

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

export function confirmText(appName: string) {
  return {
    title: 'Unsubscribe from alert emails?',
    body: `You will stop getting match alert emails from ${appName}, both instant alerts and digests. Your search terms, in-app alerts and push notifications stay as they are, and account emails (sign-in, password, billing) still arrive. You can turn alert emails back on any time in Notification Settings.`,
  }
}

/** The POST; its answer becomes the spec's status/code query. */
async function unsubscribeQuery(token: string): Promise<string> {
  try {
    await call(api.unsubscribe.post({}, { query: { token } }))

    return 'status=success'
  } catch (err) {
    const code = err instanceof ApiError ? (err.body as { code?: unknown } | null)?.code : undefined
    return typeof code === 'string' ? `status=error&code=${encodeURIComponent(code)}` : 'status=error'
  }
}

function Confirm({ token, appName }: { token: string; appName: string }) {
  const [, navigate] = useLocation()
  const [busy, setBusy] = useState(false)
  const text = confirmText(appName)
  const submit = async () => {
    setBusy(true)
    navigate(`/unsubscribe?${await unsubscribeQuery(token)}`, { replace: true })
  }
  return (
    <>
      <h1 style={{ fontSize: '1.5rem' }}>{text.title}</h1>
      <p>{text.body}</p>
      <footer>
        <button type="button" onClick={submit} disabled={busy} aria-busy={busy}>
          Unsubscribe
        </button>
      </footer>
    </>
  )
}

function Result({ status, code }: { status: string | null; code: string | null }) {
  const ok = status === 'success'
  const text = unsubscribeText(status, code)
  return (
    <>
      <h1 style={{ fontSize: '1.5rem' }}>
        {ok ? <Icon name="check" /> : null}
        {ok ? ' ' : ''}
        {text.title}
      </h1>
      <p>{text.body}</p>
      {!ok && code ? (
        <p className="muted">
          <small>Error code: {code}</small>
        </p>
      ) : null}
      <footer>
        <Link href="/settings/account?open=notifications" role="button">
          Go to Notification Settings
        </Link>{' '}
        <Link href="/" className="secondary">
          Home
        </Link>
      </footer>
    </>
  )
}

export function Unsubscribe() {
  useSignals()
  const params = new URLSearchParams(useSearch())
  const status = params.get('status')
  const code = params.get('code')
  const token = params.get('token')
  const asking = status === null && token !== null && token !== ''
  return (
    <main className="container centered">
      <article
        style={{ maxWidth: '32rem', margin: '0 auto' }}
        data-testid="unsubscribe"
        data-status={asking ? 'confirm' : status === 'success' ? 'success' : 'error'}
      >
        <header>
          <strong>{config.value.appName}</strong>
        </header>
        {asking ? <Confirm token={token} appName={config.value.appName} /> : <Result status={status} code={code} />}
      </article>
    </main>
  )
}
