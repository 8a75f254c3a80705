// 'Wait before email and push' (opt-in, 0–120 s): email and push for a match wait this long, then
// the post is re-checked once on Reddit and they go only if it is still there (src/notify/hold.ts).
// In-app alerts stay instant. Its own endpoint: GET/PUT /api/notifications/hold.
import { useEffect, useState } from 'react'
import { api } from '../api'
import { errorToast } from '../toast'

const CHOICES = [0, 10, 20, 30, 45, 60, 90, 120]

export function holdLabel(seconds: number): string {
  return seconds === 0 ? 'Off: send at once' : `${seconds} seconds`
}

export function HoldSetting() {
  const [seconds, setSeconds] = useState<number | null>(null)
  const [saving, setSaving] = useState(false)
  useEffect(() => {
    api<{ hold_seconds: number }>('/api/notifications/hold')
      .then((r) => setSeconds(r.hold_seconds))
      .catch(() => setSeconds(0))
  }, [])
  if (seconds === null) return null
  const choices = CHOICES.includes(seconds) ? CHOICES : [...CHOICES, seconds].sort((a, b) => a - b)
  const change = async (next: number) => {
    const before = seconds
    setSeconds(next)
    setSaving(true)
    try {
      await api('/api/notifications/hold', { method: 'PUT', json: { hold_seconds: next } })
    } catch {
      setSeconds(before)
      errorToast('Failed to save the wait before email and push')
    } finally {
      setSaving(false)
    }
  }
  return (
    <fieldset data-testid="hold-setting">
      <label>
        Wait before email and push
        <select
          name="hold-seconds"
          value={seconds}
          disabled={saving}
          aria-busy={saving}
          aria-describedby="hold-seconds-means"
          onChange={(e) => void change(Number(e.currentTarget.value))}
        >
          {choices.map((s) => (
            <option key={s} value={s}>
              {holdLabel(s)}
            </option>
          ))}
        </select>
      </label>
      <small id="hold-seconds-means">
        {seconds === 0
          ? 'Wait N seconds before email/push so auto-removed posts never reach me. In-app alerts are always instant.'
          : `Wait ${seconds} seconds before email/push so auto-removed posts never reach me: the post is checked again first. In-app alerts are always instant.`}
      </small>
    </fieldset>
  )
}
