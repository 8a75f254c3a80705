// 'Claim message' in Notification Settings: the template every alert's Claim button fills in (src/notify/claim.ts)
// with {title}, {price}, {link}, {author}. Empty = the default. A preview shows it filled for a sample post.
import { useState } from 'react'
import { api, ApiError, call } from '../client'
import { errorToast, toast } from '../toast'
import { fillTemplate, MAX_CLAIM_TEMPLATE } from '../../src/notify/claim'
import { claimTemplate } from '../lib/claim'

const SAMPLE = { title: '[WTS] Trijicon RMR Type 2 RM06', price: 450, url: 'https://www.reddit.com/r/example/comments/abc123/', author: 'seller_name' }

export function ClaimTemplate({ initial, fallback }: { initial: string | null; fallback: string }) {
  const [text, setText] = useState(initial ?? fallback)
  const [error, setError] = useState<string | null>(null)
  const [saving, setSaving] = useState(false)
  const save = async (value: string | null) => {
    setSaving(true)
    setError(null)
    try {
      const r = await call(api.notifications.preferences.put({ claim_template: value }))

      claimTemplate.value = r.claim_template ?? fallback
      setText(r.claim_template ?? fallback)
      toast({ title: 'Claim message saved' })
    } catch (err) {
      if (err instanceof ApiError && err.status === 400) setError(err.message)
      else errorToast('Failed to save the claim message')
    } finally {
      setSaving(false)
    }
  }
  return (
    <form
      className="claim-template"
      aria-busy={saving}
      onSubmit={(e) => {
        e.preventDefault()
        void save(text)
      }}
    >
      <label>
        Claim message
        <textarea
          name="claim-template"
          rows={3}
          maxLength={MAX_CLAIM_TEMPLATE}
          value={text}
          onChange={(e) => setText(e.currentTarget.value)}
          aria-describedby="claim-template-help"
          aria-invalid={error ? true : undefined}
        />
      </label>
      <small id="claim-template-help">
        What the Claim button of every alert sends the seller (a Reddit message, or the forum's reply box). Use {'{title}'}, {'{price}'}, {'{link}'} and{' '}
        {'{author}'}.
      </small>
      {error ? <small role="alert">{error}</small> : null}
      <p className="muted" data-testid="claim-preview">
        <small>Preview: {fillTemplate(text, SAMPLE)}</small>
      </p>
      <div role="group">
        <button type="submit" className="small" disabled={saving}>
          Save claim message
        </button>
        <button type="button" className="outline secondary small" disabled={saving} onClick={() => void save(null)}>
          Use the default
        </button>
      </div>
    </form>
  )
}
