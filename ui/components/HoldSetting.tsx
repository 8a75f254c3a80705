// 'Wait before email and push' (opt-in, 0–120 s): email and push for a match wait this long, then
// the post is re-checked once on Reddit and they go only if it is still there (src/notify/hold.ts).
// In-app alerts stay instant. Its own endpoint: GET/PUT /api/notifications/hold. A number field
// saved when it loses focus or on Enter; a value outside 0–120 is explained, not sent. Without a Reddit key
// the server's `recheck_note` says that re-checks come only from later polls of the feed, shown under it.
import { useEffect, useState } from 'react'
import { api, call } from '../client'
import { errorToast } from '../toast'

export const HOLD_MAX = 120

export function HoldSetting() {
  const [saved, setSaved] = useState<number | null>(null)
  const [text, setText] = useState('')
  const [saving, setSaving] = useState(false)
  const [recheckNote, setRecheckNote] = useState<string | null>(null)
  useEffect(() => {
    call(api.notifications.hold.get())
      .then((r) => (setSaved(r.hold_seconds), setText(String(r.hold_seconds)), setRecheckNote(r.recheck_note ?? null)))
      .catch(() => (setSaved(0), setText('0')))
  }, [])
  if (saved === null) return null
  const value = text.trim() === '' ? 0 : Number(text)
  const valid = Number.isInteger(value) && value >= 0 && value <= HOLD_MAX
  const save = async () => {
    if (!valid || value === saved || saving) return
    setSaving(true)
    try {
      await call(api.notifications.hold.put({ hold_seconds: value }))

      setSaved(value)
      setText(String(value))
    } catch {
      setText(String(saved))
      errorToast('Failed to save the wait before email and push')
    } finally {
      setSaving(false)
    }
  }
  return (
    <fieldset data-testid="hold-setting">
      <label>
        Wait before email and push (seconds)
        <input
          type="number"
          name="hold-seconds"
          inputMode="numeric"
          min={0}
          max={HOLD_MAX}
          step={1}
          value={text}
          disabled={saving}
          aria-busy={saving}
          aria-invalid={valid ? undefined : true}
          aria-describedby={recheckNote ? 'hold-seconds-means hold-recheck-note' : 'hold-seconds-means'}
          onChange={(e) => setText(e.currentTarget.value)}
          onBlur={() => void save()}
          onKeyDown={(e) => e.key === 'Enter' && void save()}
        />
      </label>
      <small id="hold-seconds-means">
        {!valid
          ? `Enter a whole number of seconds from 0 to ${HOLD_MAX}.`
          : saved === 0
            ? 'Wait N seconds before email/push so auto-removed posts never reach me. 0 sends at once; in-app alerts are always instant.'
            : `Wait ${saved} seconds before email/push so auto-removed posts never reach me: the post is checked again first. In-app alerts are always instant.`}
      </small>
      {recheckNote ? (
        <small id="hold-recheck-note" className="hold-recheck-note" data-testid="hold-recheck-note">
          {recheckNote}
        </small>
      ) : null}
    </fieldset>
  )
}
