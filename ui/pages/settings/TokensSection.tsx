// Settings → Account → Personal access tokens (GET/POST/DELETE /api/tokens): a script's key to
// the user's own API. A new token is shown once, with a copy button; the list shows each token's
// start, scopes, last use and expiry, with 'Revoke'. And 'Download my data' (GET /api/me/export).
import { useCallback, useEffect, useState } from 'react'
import type { TokenView } from '../../../src/auth/access-tokens'
import { api, ApiError, call } from '../../client'
import { toast } from '../../toast'

/** Shortest first (30 days is chosen at first). */
const EXPIRY_CHOICES = [
  { label: '7 days', days: 7 },
  { label: '30 days', days: 30 },
  { label: '90 days', days: 90 },
  { label: '1 year', days: 365 },
  { label: 'Never', days: null },
] as const

const when = (iso: string) => new Date(iso).toLocaleDateString()

export function TokensSection() {
  const [tokens, setTokens] = useState<TokenView[] | null>(null)
  const [name, setName] = useState('')
  const [write, setWrite] = useState(false)
  const [days, setDays] = useState<string>('30')
  const [fresh, setFresh] = useState<{ name: string; token: string } | null>(null)
  const load = useCallback(async () => {
    try {
      setTokens((await call(api.tokens.get())).tokens)
    } catch (err) {
      if (!(err instanceof ApiError && err.status === 401)) toast({ title: 'Error', description: 'Failed to load your tokens.', variant: 'destructive' })
    }
  }, [])
  useEffect(() => void load(), [load])

  const create = async (e: React.FormEvent) => {
    e.preventDefault()
    try {
      const made = await call(api.tokens.post({ name, scopes: write ? ['read', 'write'] : ['read'], expiresInDays: days === 'never' ? null : Number(days) }))
      setFresh({ name: made.name, token: made.token })
      setName('')
      void load()
    } catch (err) {
      toast({ title: 'Error', description: err instanceof ApiError ? err.message : 'Failed to create the token.', variant: 'destructive' })
    }
  }
  const copy = async () => {
    if (fresh === null) return
    try {
      await navigator.clipboard.writeText(fresh.token)
      toast({ title: 'Copied', description: 'The token is on your clipboard.' })
    } catch {
      toast({ title: 'Error', description: 'Could not copy: select the token and copy it yourself.', variant: 'destructive' })
    }
  }
  const revoke = async (t: TokenView) => {
    try {
      await call(api.tokens({ id: t.id }).delete())

      toast({ title: 'Token revoked', description: `"${t.name}" no longer works.` })
      if (fresh?.name === t.name) setFresh(null)
      void load()
    } catch {
      toast({ title: 'Error', description: 'Failed to revoke that token.', variant: 'destructive' })
    }
  }

  return (
    <section aria-labelledby="tokens-title">
      <h4 id="tokens-title">Personal access tokens</h4>
      <p>
        <small className="muted">
          A token lets your own scripts use the API as you: send it as <code>Authorization: Bearer &lt;token&gt;</code> (see the README's API section and{' '}
          <a href="/api/docs">/api/docs</a>). <em>Read</em> lists terms and matches and follows the live stream; <em>Read and write</em> also changes terms and
          marks matches read or archived. Tokens never reach admin pages, sign-in or account settings.
        </small>
      </p>
      {fresh === null ? null : (
        <div role="status" className="token-once" data-testid="new-token">
          <p>
            <strong>Copy your new token "{fresh.name}" now.</strong> It will not be shown again.
          </p>
          <code>{fresh.token}</code>{' '}
          <button type="button" className="outline small" onClick={() => void copy()}>
            Copy
          </button>{' '}
          <button type="button" className="secondary outline small" onClick={() => setFresh(null)}>
            Done
          </button>
        </div>
      )}
      {tokens === null ? (
        <p aria-busy="true">Loading tokens...</p>
      ) : tokens.length === 0 ? (
        <p className="muted">No tokens yet.</p>
      ) : (
        <ul className="devices">
          {tokens.map((t) => (
            <li key={t.id} data-testid="token">
              <span>
                <strong>{t.name}</strong> <code>{t.hint}</code> <span className="badge">{t.scopes.includes('write') ? 'read, write' : 'read'}</span>
                {t.expired ? <span className="badge"> Expired</span> : null}
                <br />
                <small className="muted">
                  created {when(t.createdAt)} · {t.lastUsedAt ? `last used ${new Date(t.lastUsedAt).toLocaleString()}` : 'never used'} ·{' '}
                  {t.expiresAt ? `${t.expired ? 'expired' : 'expires'} ${when(t.expiresAt)}` : 'no expiry'}
                </small>
              </span>
              <button type="button" className="outline secondary small" onClick={() => void revoke(t)} aria-label={`Revoke ${t.name}`}>
                Revoke
              </button>
            </li>
          ))}
        </ul>
      )}
      <form onSubmit={create}>
        <input
          name="tokenName"
          placeholder="Token name (what will use it?)"
          aria-label="Token name"
          required
          maxLength={100}
          value={name}
          onChange={(e) => setName(e.target.value)}
        />
        <fieldset>
          <legend>Access</legend>
          <label>
            <input type="radio" name="tokenScope" checked={!write} onChange={() => setWrite(false)} /> Read
          </label>
          <label>
            <input type="radio" name="tokenScope" checked={write} onChange={() => setWrite(true)} /> Read and write
          </label>
        </fieldset>
        <label>
          Expires after
          <select name="tokenExpiry" value={days} onChange={(e) => setDays(e.target.value)}>
            {EXPIRY_CHOICES.map((c) => (
              <option key={c.label} value={c.days === null ? 'never' : String(c.days)}>
                {c.label}
              </option>
            ))}
          </select>
        </label>
        <button type="submit">Create token</button>
      </form>
    </section>
  )
}

/** 'Download my data': every row Dibs holds about the account, as one JSON file (no secrets). */
export function DataExportSection() {
  return (
    <section aria-labelledby="data-title">
      <h4 id="data-title">Your data</h4>
      <p>
        <small className="muted">
          One JSON file with your account, search terms, matches and archive, preferences, channels and devices (never a password, key or secret).
        </small>
      </p>
      <a href="/api/me/export" download role="button" className="outline">
        Download my data
      </a>
    </section>
  )
}
