// 'Other channels' in Notification Settings (issue 16 item 8): the user's webhooks, ntfy topics
// and Discord webhooks, each with 'Send test' (the delivery result shows inline: status code or
// error), 'Remove' (asked first) and, for webhooks, 'Regenerate secret'; and an 'Add channel' form. A webhook's
// signing secret is shown once, right after it is made.
import { useEffect, useState } from 'react'
import { api, ApiError } from '../api'
import { errorToast } from '../toast'
import { ConfirmDialog } from './ConfirmDialog'
import { channelLabel } from './TermDelivery'
import type { EndpointKind } from '../../src/notify/endpoints'
import { Icon } from './Icon'

type Kind = EndpointKind
type Channel = { id: number; kind: Kind; name: string; url: string; lastResult: string | null; lastResultAt: string | null; hasToken: boolean }
type Gate = { allowed: boolean; message: string | null }

const PLACEHOLDER: Record<Kind, string> = {
  webhook: 'https://example.com/hooks/dibs',
  ntfy: 'https://ntfy.sh/my-secret-topic',
  discord: 'https://discord.com/api/webhooks/…',
}

export function ExternalChannels() {
  const [channels, setChannels] = useState<Channel[]>([])
  const [gate, setGate] = useState<Gate>({ allowed: true, message: null })
  const [results, setResults] = useState<Record<number, { ok: boolean; text: string } | 'sending'>>({})
  const [secret, setSecret] = useState<{ id: number; value: string } | null>(null)
  const [form, setForm] = useState({ kind: 'webhook' as Kind, name: '', url: '', token: '', priority: '3', tags: '' })
  const [error, setError] = useState<string | null>(null)
  const [adding, setAdding] = useState(false)
  const [removing, setRemoving] = useState<Channel | null>(null) // asked first (issue 30 §5)

  const load = () =>
    api<{ channels: Channel[]; gate: Gate }>('/api/notifications/channels')
      .then((r) => (setChannels(r.channels), setGate(r.gate)))
      .catch(() => undefined)
  useEffect(() => void load(), [])

  const add = async () => {
    setAdding(true)
    setError(null)
    try {
      const json =
        form.kind === 'ntfy'
          ? { kind: form.kind, name: form.name, url: form.url, token: form.token || undefined, priority: Number(form.priority), tags: form.tags }
          : { kind: form.kind, name: form.name, url: form.url }
      const r = await api<{ channel: Channel; secret?: string }>('/api/notifications/channels', { method: 'POST', json })
      setChannels((list) => [...list, r.channel])
      if (r.secret) setSecret({ id: r.channel.id, value: r.secret })
      setForm({ ...form, name: '', url: '', token: '', tags: '' })
    } catch (err) {
      setError(err instanceof ApiError ? err.message : 'Failed to add the channel')
    } finally {
      setAdding(false)
    }
  }
  const test = async (id: number) => {
    setResults((r) => ({ ...r, [id]: 'sending' }))
    try {
      const r = await api<{ ok: boolean; result: string; channel: Channel }>(`/api/notifications/channels/${id}/test`, { method: 'POST' })
      setResults((x) => ({ ...x, [id]: { ok: r.ok, text: r.ok ? `Test sent: ${r.result}` : `Test failed: ${r.result}` } }))
      setChannels((list) => list.map((c) => (c.id === id ? r.channel : c)))
    } catch (err) {
      setResults((x) => ({ ...x, [id]: { ok: false, text: `Test failed: ${err instanceof Error ? err.message : String(err)}` } }))
    }
  }
  const remove = async (id: number) => {
    try {
      await api(`/api/notifications/channels/${id}`, { method: 'DELETE' })
      setChannels((list) => list.filter((c) => c.id !== id))
    } catch {
      errorToast('Failed to remove the channel')
    }
  }
  const regenerate = async (id: number) => {
    try {
      const r = await api<{ secret: string }>(`/api/notifications/channels/${id}/secret`, { method: 'POST' })
      setSecret({ id, value: r.secret })
    } catch {
      errorToast('Failed to regenerate the secret')
    }
  }

  return (
    <fieldset aria-labelledby="external-channels-title" data-testid="external-channels">
      <legend id="external-channels-title">Webhook, ntfy and Discord</legend>
      {!gate.allowed ? (
        <small className="locked">
          <Icon name="lock" /> {gate.message}
        </small>
      ) : null}
      {removing ? (
        <ConfirmDialog
          title={`Remove ${channelLabel(removing)}?`}
          text={`Alerts stop going to ${removing.url}. To use it again you add it anew${removing.kind === 'webhook' ? ', with a new signing secret' : ''}.`}
          action="Remove"
          onCancel={() => setRemoving(null)}
          onConfirm={() => {
            setRemoving(null)
            void remove(removing.id)
          }}
        />
      ) : null}
      <ul className="external-channels">
        {channels.map((c) => {
          const result = results[c.id]
          return (
            <li key={c.id}>
              <strong>{channelLabel(c)}</strong> <small className="channel-url">{c.url}</small>
              {secret?.id === c.id ? (
                <p className="channel-secret">
                  Signing secret (shown once, copy it now): <code>{secret.value}</code>
                </p>
              ) : null}
              <div role="group" aria-label={`${channelLabel(c)} actions`}>
                <button type="button" className="secondary" disabled={result === 'sending' || !gate.allowed} onClick={() => void test(c.id)}>
                  Send test
                </button>
                {c.kind === 'webhook' ? (
                  <button type="button" className="secondary" onClick={() => void regenerate(c.id)}>
                    Regenerate secret
                  </button>
                ) : null}
                <button type="button" className="secondary" aria-label={`Remove ${channelLabel(c)}`} onClick={() => setRemoving(c)}>
                  Remove
                </button>
              </div>
              <small role="status" className={result && result !== 'sending' && !result.ok ? 'term-error' : undefined}>
                {result === 'sending' ? 'Sending…' : result ? result.text : c.lastResult ? `Last delivery: ${c.lastResult}` : ''}
              </small>
            </li>
          )
        })}
      </ul>
      {gate.allowed ? (
        <form
          aria-label="Add channel"
          onSubmit={(e) => {
            e.preventDefault()
            void add()
          }}
        >
          <div className="grid">
            <label>
              Type
              <select name="channel-kind" value={form.kind} onChange={(e) => setForm({ ...form, kind: e.currentTarget.value as Kind })}>
                <option value="webhook">Webhook</option>
                <option value="ntfy">ntfy</option>
                <option value="discord">Discord</option>
              </select>
            </label>
            <label>
              Name (optional)
              <input name="channel-name" maxLength={60} value={form.name} onChange={(e) => setForm({ ...form, name: e.currentTarget.value })} />
            </label>
          </div>
          <label>
            URL
            <input
              name="channel-url"
              type="url"
              required
              placeholder={PLACEHOLDER[form.kind]}
              value={form.url}
              aria-invalid={error ? true : undefined}
              onChange={(e) => setForm({ ...form, url: e.currentTarget.value })}
            />
          </label>
          {form.kind === 'ntfy' ? (
            <div className="grid">
              <label>
                Access token (optional)
                <input
                  name="channel-token"
                  type="password"
                  autoComplete="off"
                  value={form.token}
                  onChange={(e) => setForm({ ...form, token: e.currentTarget.value })}
                />
              </label>
              <label>
                Priority
                <select name="channel-priority" value={form.priority} onChange={(e) => setForm({ ...form, priority: e.currentTarget.value })}>
                  <option value="1">1 (min)</option>
                  <option value="2">2 (low)</option>
                  <option value="3">3 (default)</option>
                  <option value="4">4 (high)</option>
                  <option value="5">5 (max)</option>
                </select>
              </label>
              <label>
                Tags
                <input name="channel-tags" placeholder="shopping_cart" value={form.tags} onChange={(e) => setForm({ ...form, tags: e.currentTarget.value })} />
              </label>
            </div>
          ) : null}
          {error ? (
            <small role="alert" className="term-error">
              {error}
            </small>
          ) : null}
          <button type="submit" disabled={adding}>
            Add channel
          </button>
        </form>
      ) : null}
    </fieldset>
  )
}
