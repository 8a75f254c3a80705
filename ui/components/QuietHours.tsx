// 'Quiet hours' in Notification Settings (issue 16 item 7): start, end and time zone (detected
// from the browser, editable, checked by the server against Intl). Email and push that fall inside
// wait and arrive as one summary when they end; the sentence under the form says so in words.
import { useState } from 'react'
import { api, ApiError, call } from '../client'
import { errorToast } from '../toast'

export type QuietValue = { start: string; end: string; time_zone: string } | null

export const browserTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC'

export function QuietHours({ initial, summary }: { initial: QuietValue; summary: string }) {
  const [on, setOn] = useState(initial !== null)
  const [form, setForm] = useState({ start: initial?.start ?? '22:00', end: initial?.end ?? '07:00', time_zone: initial?.time_zone ?? browserTimeZone() })
  const [sentence, setSentence] = useState(summary)
  const [error, setError] = useState<string | null>(null)
  const [saving, setSaving] = useState(false)
  const zones = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : []

  const put = async (quiet_hours: QuietValue) => {
    setSaving(true)
    setError(null)
    try {
      const r = await call(api.notifications.preferences.put({ quiet_hours }))

      setSentence(r.quiet_summary)
      return true
    } catch (err) {
      if (err instanceof ApiError && err.status === 400) setError(err.message)
      else errorToast('Failed to save quiet hours')
      return false
    } finally {
      setSaving(false)
    }
  }
  const toggle = async (next: boolean) => {
    setOn(next)
    if (!next && !(await put(null))) setOn(true)
  }

  return (
    <fieldset aria-labelledby="quiet-hours-label" aria-busy={saving}>
      <label id="quiet-hours-label">
        <input type="checkbox" role="switch" name="quiet-hours" checked={on} disabled={saving} onChange={(e) => void toggle(e.currentTarget.checked)} />
        Quiet hours
      </label>
      {on ? (
        <form
          className="quiet-hours"
          onSubmit={(e) => {
            e.preventDefault()
            void put(form)
          }}
        >
          <div className="grid">
            <label>
              Start
              <input type="time" name="quiet-start" required value={form.start} onChange={(e) => setForm({ ...form, start: e.currentTarget.value })} />
            </label>
            <label>
              End
              <input type="time" name="quiet-end" required value={form.end} onChange={(e) => setForm({ ...form, end: e.currentTarget.value })} />
            </label>
          </div>
          <label>
            Time zone
            <input
              name="quiet-time-zone"
              list="quiet-time-zones"
              required
              value={form.time_zone}
              aria-invalid={error ? true : undefined}
              aria-describedby="quiet-hours-summary"
              onChange={(e) => setForm({ ...form, time_zone: e.currentTarget.value })}
            />
            <datalist id="quiet-time-zones">
              {zones.map((z) => (
                <option key={z} value={z} />
              ))}
            </datalist>
          </label>
          {error ? (
            <small role="alert" className="term-error">
              {error}
            </small>
          ) : null}
          <button type="submit" className="secondary" disabled={saving}>
            Save quiet hours
          </button>
        </form>
      ) : null}
      <small id="quiet-hours-summary" role="status">
        {on ? sentence : 'No quiet hours: alerts arrive at any time.'}
      </small>{' '}
      {on ? <small>Terms marked “Always notify” still alert at once.</small> : null}
    </fieldset>
  )
}
