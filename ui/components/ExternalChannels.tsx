// 'Other channels' in Notification Settings (issue 16 item 8, issue 27 §3–4): the user's channels of
// every kind the server's registry offers (src/outbox/channels/registry.ts: the kinds, their labels,
// setup lines and form fields come from GET /api/notifications/channels, so a new provider needs
// nothing here). Each channel has 'Send test' (the result inline), 'What Dibs sends' (the request,
// secrets masked), its level (all alerts / only price drops and important terms) and cap per
// minute, 'Remove' (asked first) and, for webhooks, 'Regenerate secret'. A webhook's signing
// secret is shown once, right after it is made; a Telegram channel shows `/start <code>` and the
// bot's name until the chat is linked (instead of the failure an alert to an unlinked chat records). A failing
// channel shows its last error as an alert. The type's setup line describes the type and every field of the form.
import { useEffect, useState } from 'react'
import { api, ApiError, call, type Answer } from '../client'
import { errorToast } from '../toast'
import { ConfirmDialog } from './ConfirmDialog'
import { channelLabel } from './TermDelivery'
import { Icon } from './Icon'

type Listing = Answer<typeof api.notifications.channels.get>
type Kind = Listing['kinds'][number]
/** What a provider adds to its channels' view (src/outbox/channels: Telegram's link state); the server types it as open. */
type ProviderView = { linked?: boolean; linkCode?: string | null; startCommand?: string | null; botUsername?: string | null }
type Channel = Listing['channels'][number] & ProviderView
type Gate = Listing['gate']
type Payload = Answer<ReturnType<typeof api.notifications.channels>['payload']['get']>['request']
/** The add form's body: the common fields plus the kind's own (its registry fields, by name). */
type Draft = Parameters<typeof api.notifications.channels.post>[0] & Record<string, string | number>
type Control = Parameters<ReturnType<typeof api.notifications.channels>['patch']>[0]

/** "Send /start ab12cd34 to @DibsBot": how a Telegram chat is linked. */
function TelegramLink({ c }: { c: Channel }) {
  if (c.kind !== 'telegram' || c.linked) return null
  return (
    <p className="channel-secret" data-testid="telegram-link">
      To link your chat, send <code>{c.startCommand}</code> to{' '}
      {c.botUsername ? <a href={`https://t.me/${c.botUsername}?start=${c.linkCode}`}>@{c.botUsername}</a> : 'the bot'} in Telegram.
    </p>
  )
}

export function ExternalChannels() {
  const [channels, setChannels] = useState<Channel[]>([])
  const [kinds, setKinds] = useState<Kind[]>([])
  const [gate, setGate] = useState<Gate>({ allowed: true, message: null })
  const [results, setResults] = useState<Record<number, { ok: boolean; text: string } | 'sending'>>({})
  const [payloads, setPayloads] = useState<Record<number, Payload>>({})
  const [secret, setSecret] = useState<{ id: number; value: string } | null>(null)
  const [form, setForm] = useState<{ kind: string; name: string; values: Record<string, string> }>({ kind: 'webhook', name: '', values: {} })
  const [error, setError] = useState<{ field: string | null; text: string } | null>(null)
  const [adding, setAdding] = useState(false)
  const [removing, setRemoving] = useState<Channel | null>(null) // asked first (issue 30 §5)

  const load = () =>
    call(api.notifications.channels.get())
      .then((r) => (setChannels(r.channels), setKinds(r.kinds), setGate(r.gate)))
      .catch(() => undefined)
  useEffect(() => void load(), [])
  const kind = kinds.find((k) => k.kind === form.kind)
  const replace = (c: Channel) => setChannels((list) => list.map((x) => (x.id === c.id ? c : x)))

  const add = async () => {
    if (!kind) return
    setAdding(true)
    setError(null)
    try {
      const json: Draft = { kind: kind.kind, name: form.name }
      for (const f of kind.fields) {
        const v = form.values[f.name] ?? ''
        if (v !== '') json[f.name] = f.name === 'priority' ? Number(v) : v
      }
      const r = await call(api.notifications.channels.post(json))
      setChannels((list) => [...list, r.channel])
      if ('secret' in r && typeof r.secret === 'string') setSecret({ id: r.channel.id, value: r.secret })
      setForm({ ...form, name: '', values: {} })
    } catch (err) {
      const field = err instanceof ApiError ? ((err.body as { error?: { field?: string } } | undefined)?.error?.field ?? null) : null
      setError({ field, text: err instanceof ApiError ? err.message : 'Failed to add the channel' })
    } finally {
      setAdding(false)
    }
  }
  const test = async (id: number) => {
    setResults((r) => ({ ...r, [id]: 'sending' }))
    try {
      const r = await call(api.notifications.channels({ id }).test.post())
      setResults((x) => ({ ...x, [id]: { ok: r.ok, text: r.ok ? `Test sent: ${r.result}` : `Test failed: ${r.result}` } }))
      replace(r.channel)
    } catch (err) {
      setResults((x) => ({ ...x, [id]: { ok: false, text: `Test failed: ${err instanceof Error ? err.message : String(err)}` } }))
    }
  }
  const showPayload = async (id: number) => {
    try {
      const r = await call(api.notifications.channels({ id }).payload.get())
      setPayloads((p) => ({ ...p, [id]: r.request }))
    } catch {
      errorToast('Failed to load what Dibs sends')
    }
  }
  const control = async (id: number, change: Control) => {
    try {
      const r = await call(api.notifications.channels({ id }).patch(change))
      replace(r.channel)
    } catch (err) {
      errorToast(err instanceof ApiError ? err.message : 'Failed to save the channel')
    }
  }
  const remove = async (id: number) => {
    try {
      await call(api.notifications.channels({ id }).delete())
      setChannels((list) => list.filter((c) => c.id !== id))
    } catch {
      errorToast('Failed to remove the channel')
    }
  }
  const regenerate = async (id: number) => {
    try {
      const r = await call(api.notifications.channels({ id }).secret.post())

      setSecret({ id, value: r.secret })
    } catch {
      errorToast('Failed to regenerate the secret')
    }
  }

  return (
    <fieldset aria-labelledby="external-channels-title" data-testid="external-channels">
      <legend id="external-channels-title">Other channels</legend>
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
          const payload = payloads[c.id]
          return (
            <li key={c.id} data-kind={c.kind}>
              <strong>{channelLabel(c)}</strong> <small className="channel-url">{c.url}</small>
              {secret?.id === c.id ? (
                <p className="channel-secret">
                  Signing secret (shown once, copy it now): <code>{secret.value}</code>
                </p>
              ) : null}
              <TelegramLink c={c} />
              <div role="group" aria-label={`${channelLabel(c)} actions`}>
                <button type="button" className="secondary" disabled={result === 'sending' || !gate.allowed} onClick={() => void test(c.id)}>
                  Send test
                </button>
                <button type="button" className="secondary outline" onClick={() => void showPayload(c.id)}>
                  What Dibs sends
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
              <div className="grid">
                <label>
                  Alerts
                  <select
                    name={`channel-level-${c.id}`}
                    value={c.level}
                    onChange={(e) => void control(c.id, { level: e.currentTarget.value === 'important' ? 'important' : 'all' })}
                  >
                    <option value="all">All alerts</option>
                    <option value="important">Only price drops and important terms</option>
                  </select>
                </label>
                <label>
                  At most per minute
                  <select
                    name={`channel-rate-${c.id}`}
                    value={c.ratePerMinute === null ? '' : String(c.ratePerMinute)}
                    onChange={(e) => void control(c.id, { ratePerMinute: e.currentTarget.value === '' ? null : Number(e.currentTarget.value) })}
                  >
                    <option value="">No limit</option>
                    {[1, 2, 3, 5, 10, 20].map((n) => (
                      <option key={n} value={n}>
                        {n} (the rest in one message)
                      </option>
                    ))}
                  </select>
                </label>
              </div>
              {payload ? (
                <details open>
                  <summary>What Dibs sends</summary>
                  <pre className="channel-payload">{`${payload.method} ${payload.url}\n${Object.entries(payload.headers)
                    .map(([k, v]) => `${k}: ${v}`)
                    .join('\n')}\n\n${payload.body}`}</pre>
                </details>
              ) : null}
              {result ? (
                <small role="status" className={result !== 'sending' && !result.ok ? 'term-error' : undefined}>
                  {result === 'sending' ? 'Sending…' : result.text}
                </small>
              ) : c.failing && c.linked !== false ? (
                <small role="alert" className="term-error">
                  Last delivery {c.lastResult}
                </small>
              ) : (
                <small role="status">{c.lastResult ? `Last delivery: ${c.lastResult}` : ''}</small>
              )}
            </li>
          )
        })}
      </ul>
      {gate.allowed ? (
        <form
          aria-label="Add channel"
          className="add-channel"
          onSubmit={(e) => {
            e.preventDefault()
            void add()
          }}
        >
          <div className="grid">
            <label>
              Type
              <select
                name="channel-kind"
                value={form.kind}
                aria-describedby={kind ? 'channel-setup' : undefined}
                onChange={(e) => (setForm({ kind: e.currentTarget.value, name: form.name, values: {} }), setError(null))}
              >
                {kinds.map((k) => (
                  <option key={k.kind} value={k.kind} disabled={k.unavailable !== null}>
                    {k.label}
                    {k.unavailable ? ' (not set up here)' : ''}
                  </option>
                ))}
              </select>
            </label>
            <label>
              Name (optional)
              <input name="channel-name" maxLength={60} value={form.name} onChange={(e) => setForm({ ...form, name: e.currentTarget.value })} />
            </label>
          </div>
          {kind ? <small id="channel-setup">{kind.unavailable ?? kind.setup}</small> : null}
          {kind?.fields.map((f) => {
            const common = {
              name: `channel-${f.name}`,
              required: f.required,
              'aria-describedby': 'channel-setup',
              value: form.values[f.name] ?? '',
              'aria-invalid': error?.field === f.name ? true : undefined,
              onChange: (e: { currentTarget: { value: string } }) => setForm({ ...form, values: { ...form.values, [f.name]: e.currentTarget.value } }),
            }
            return (
              <label key={f.name}>
                {f.label}
                {f.type === 'select' ? (
                  <select {...common} value={form.values[f.name] ?? f.options?.[2]?.value ?? ''}>
                    {f.options?.map((o) => (
                      <option key={o.value} value={o.value}>
                        {o.label}
                      </option>
                    ))}
                  </select>
                ) : f.type === 'textarea' ? (
                  <textarea {...common} rows={3} placeholder={f.placeholder} />
                ) : (
                  <input
                    {...common}
                    type={f.type === 'secret' ? 'password' : f.type === 'url' ? 'url' : 'text'}
                    autoComplete="off"
                    placeholder={f.placeholder}
                  />
                )}
              </label>
            )
          })}
          {error ? (
            <small role="alert" className="term-error">
              {error.text}
            </small>
          ) : null}
          <button type="submit" disabled={adding || !kind || kind.unavailable !== null}>
            Add channel
          </button>
        </form>
      ) : null}
    </fieldset>
  )
}
