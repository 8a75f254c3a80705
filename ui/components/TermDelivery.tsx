// Per-term alert settings (issue 16 item 6): a bell button on each term chip opens a dialog with
// the term's channels — Email (Use my default / Instant / Digest / Off), Push, each external
// channel the user added — a mute (1 hour, 8 hours, 24 hours, until unmuted) and "Always notify"
// (through quiet hours). Every control saves at once (PATCH /api/terms/:id/delivery); in-app
// alerts always stay on.
import { useEffect, useState } from 'react'
import { createPortal } from 'react-dom'
import type { Category } from '../../src/access/categories'
import { TERM_EMAIL } from '../../src/notify/delivery'
import { api, call } from '../client'
import { replaceTerm, type Term } from '../terms'
import { errorToast } from '../toast'
import { Modal } from './Modal'
import { Icon } from './Icon'

/** A channel as GET /api/notifications/channels lists it: `label` is the registry's name of its kind. */
export type ChannelItem = { id: number; kind: string; label: string; name: string; url: string }
type Channel = ChannelItem
type Change = Parameters<ReturnType<typeof api.terms>['delivery']['patch']>[0]

export const channelLabel = (c: Channel) => `${c.label}${c.name ? `: ${c.name}` : ''}`

const isMuted = (t: Term) => t.mutedUntil === 'forever' || (!!t.mutedUntil && Date.parse(t.mutedUntil) > Date.now())

export function mutedText(t: Term): string {
  if (t.mutedUntil === 'forever') return 'Muted until you unmute'
  return `Muted until ${new Date(t.mutedUntil!).toLocaleString(undefined, { weekday: 'short', hour: '2-digit', minute: '2-digit' })}`
}

/** The chip's button (one line in TermChip) and, when open, the dialog. */
export function TermDeliveryButton({ category, term, busy }: { category: Category; term: Term; busy: boolean }) {
  const [open, setOpen] = useState(false)
  const muted = isMuted(term)
  return (
    <>
      <button
        type="button"
        aria-label={`Alert settings for ${term.term}${muted ? ' (muted)' : ''}`}
        title={muted ? mutedText(term) : 'Alert settings'}
        disabled={busy}
        onClick={() => setOpen(true)}
      >
        <Icon name={muted ? 'bell-off' : 'bell'} />
      </button>
      {/* outside the chip's <li>: the dialog must not inherit the chip's look (small, italic when paused, its button style) */}
      {open ? createPortal(<TermDeliveryDialog category={category} term={term} onClose={() => setOpen(false)} />, document.body) : null}
    </>
  )
}

function TermDeliveryDialog({ category, term, onClose }: { category: Category; term: Term; onClose: () => void }) {
  const [channels, setChannels] = useState<Channel[]>([])
  const [saving, setSaving] = useState(false)
  const d: { email: string; push: boolean; endpoints: Record<string, boolean>; important?: boolean } = term.delivery ?? {
    email: 'default',
    push: true,
    endpoints: {},
  }
  const muted = isMuted(term)
  useEffect(() => {
    call(api.notifications.channels.get())
      .then((r) => setChannels(r.channels))
      .catch(() => setChannels([]))
  }, [])

  const save = async (change: Change) => {
    setSaving(true)
    try {
      const r = await call(api.terms({ id: term.id }).delivery.patch(change))

      replaceTerm(category, r.term)
    } catch {
      errorToast('Failed to save alert settings')
    } finally {
      setSaving(false)
    }
  }
  const titleId = `term-delivery-title-${term.id}`
  return (
    <Modal onClose={onClose} aria-labelledby={titleId} data-testid="term-delivery" onClick={(e) => e.target === e.currentTarget && onClose()}>
      <article>
        <header>
          <button type="button" aria-label="Close" rel="prev" className="close-x" onClick={onClose} />
          <h3 id={titleId}>Alerts for “{term.term}”</h3>
        </header>
        <p>
          <small>In-app alerts always stay on.</small>
        </p>
        <fieldset disabled={saving} aria-busy={saving}>
          <label>
            Email
            <select name="term-email" value={d.email} onChange={(e) => void save({ email: TERM_EMAIL.find((v) => v === e.currentTarget.value) })}>
              <option value="default">Use my default</option>
              <option value="instant">Instant</option>
              <option value="digest">Digest</option>
              <option value="off">Off</option>
            </select>
          </label>
          <label>
            <input type="checkbox" role="switch" name="term-push" checked={d.push} onChange={(e) => void save({ push: e.currentTarget.checked })} />
            Push
          </label>
          {channels.map((c) => (
            <label key={c.id}>
              <input
                type="checkbox"
                role="switch"
                checked={d.endpoints[String(c.id)] !== false}
                onChange={(e) => void save({ endpoints: { [c.id]: e.currentTarget.checked } })}
              />
              {channelLabel(c)}
            </label>
          ))}
          <label>
            <input type="checkbox" name="term-always" checked={!!term.alwaysNotify} onChange={(e) => void save({ always_notify: e.currentTarget.checked })} />
            Always notify (even during quiet hours)
          </label>
          <label>
            <input type="checkbox" name="term-important" checked={!!d.important} onChange={(e) => void save({ important: e.currentTarget.checked })} />
            Important (also reaches channels set to “only price drops and important terms”)
          </label>
        </fieldset>
        <fieldset disabled={saving}>
          <legend>Mute</legend>
          {muted ? (
            <p role="status">
              {mutedText(term)}{' '}
              <button type="button" className="secondary outline" onClick={() => void save({ mute: null })}>
                Unmute
              </button>
            </p>
          ) : (
            <div role="group" aria-label="Mute for" className="mute-choices">
              <button type="button" className="secondary outline" onClick={() => void save({ mute: '1h' })}>
                1 hour
              </button>
              <button type="button" className="secondary outline" onClick={() => void save({ mute: '8h' })}>
                8 hours
              </button>
              <button type="button" className="secondary outline" onClick={() => void save({ mute: '24h' })}>
                24 hours
              </button>
              <button type="button" className="secondary outline" onClick={() => void save({ mute: 'forever' })}>
                Until I unmute
              </button>
            </div>
          )}
          <small>A muted term still shows its matches here, without email, push or other alerts.</small>
        </fieldset>
        <footer>
          <button type="button" className="secondary" onClick={onClose}>
            Done
          </button>
        </footer>
      </article>
    </Modal>
  )
}
