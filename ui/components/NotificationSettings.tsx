// Notification Settings dialog (spec §2 modal, §4 toggles, §6 gating, §8 toasts). Each control
// saves on change, optimistically: the UI flips at once and flips back with the spec's toast if
// the save fails. A control is disabled while its own save runs (one save at a time per toggle)
// and the dialog refuses to close until every save is done ('Saving in progress').
import { useEffect, useRef, useState } from 'react'
import { api, call } from '../client'
import { config } from '../state'
import { errorToast, toast } from '../toast'
import { currentSubscription, pushSupported, subscribeThisDevice, unsubscribeThisDevice } from '../push'
import { ExternalChannels } from './ExternalChannels'
import { HoldSetting } from './HoldSetting'
import { ClaimTemplate } from './ClaimTemplate'
import { Modal } from './Modal'
import { QuietHours, type QuietValue } from './QuietHours'
import { Icon } from './Icon'

type Frequency = 'instant' | 'batched' | 'none'
type Gate = { allowed: boolean; message: string | null }
type Prefs = {
  email_frequency: Frequency
  web_push_enabled: boolean
  digest_interval_minutes: number
  gates: { email: Gate; webPush: Gate }
  quiet_hours?: QuietValue
  quiet_summary?: string
  claim_template?: string | null
  claim_template_default?: string
}
type Key = 'email' | 'frequency' | 'push'

const DEFAULTS: Prefs = {
  email_frequency: 'batched',
  web_push_enabled: false,
  digest_interval_minutes: 15,
  gates: { email: { allowed: true, message: null }, webPush: { allowed: true, message: null } },
}

/** 'every 15 minutes', 'every minute', 'every 2 hours' (DIGEST_INTERVAL_MINUTES, 1..1440). */
export function everyText(minutes: number): string {
  if (minutes === 1) return 'every minute'
  if (minutes % 60 === 0) return minutes === 60 ? 'every hour' : `every ${minutes / 60} hours`
  return `every ${minutes} minutes`
}

/** The options of 'How often' and what each one means. */
export function frequencyTexts(digestMinutes: number) {
  const every = everyText(digestMinutes)
  return {
    batched: { label: `Digest ${every}`, means: `One email ${every} listing your new matches, only when there are any.` },
    instant: { label: 'Instant: one email per match', means: 'An email for every match the moment it is found; busy search terms can send many.' },
  }
}

export const SAVE_FAILED: Record<Key, string> = {
  email: 'Failed to save email preference',
  frequency: 'Failed to save preference',
  push: 'Failed to save notification preference',
}

export function NotificationSettings({ onClose }: { onClose: () => void }) {
  const [prefs, setPrefs] = useState<Prefs>(DEFAULTS)
  const [deviceOn, setDeviceOn] = useState(false)
  const [loading, setLoading] = useState(true)
  const [saving, setSaving] = useState<Record<Key, boolean>>({ email: false, frequency: false, push: false })
  const savingRef = useRef(saving)
  savingRef.current = saving
  // The non-none frequency to come back to when email is switched on again.
  const lastOn = useRef<Frequency>(DEFAULTS.email_frequency)

  useEffect(() => {
    let live = true
    Promise.all([call(api.notifications.preferences.get()), currentSubscription().catch(() => null)])
      .then(([p, sub]) => {
        if (!live) return
        setPrefs(p)
        if (p.email_frequency !== 'none') lastOn.current = p.email_frequency
        setDeviceOn(p.web_push_enabled && sub !== null)
      })
      .catch(() => live && toast({ title: 'Failed to load preferences', description: 'Please try again later.', variant: 'destructive' }))
      .finally(() => live && setLoading(false))
    return () => {
      live = false
    }
  }, [])

  /** Runs one save for one control: optimistic apply, revert + toast on failure. */
  async function save(key: Key, apply: () => void, revert: () => void, run: () => Promise<void>) {
    if (savingRef.current[key]) return
    setSaving((s) => ({ ...s, [key]: true }))
    apply()
    try {
      await run()
    } catch {
      revert()
      errorToast(SAVE_FAILED[key])
    } finally {
      setSaving((s) => ({ ...s, [key]: false }))
    }
  }

  const put = (change: Partial<Pick<Prefs, 'email_frequency' | 'web_push_enabled'>>) => call(api.notifications.preferences.put(change)).then(() => undefined)

  const setFrequency = (key: 'email' | 'frequency', next: Frequency) => {
    const before = prefs.email_frequency
    if (next !== 'none') lastOn.current = next
    return save(
      key,
      () => setPrefs((p) => ({ ...p, email_frequency: next })),
      () => setPrefs((p) => ({ ...p, email_frequency: before })),
      () => put({ email_frequency: next }),
    )
  }

  const setPush = (on: boolean) =>
    save(
      'push',
      () => setDeviceOn(on),
      () => setDeviceOn(!on),
      async () => {
        if (on) {
          await subscribeThisDevice()
          await put({ web_push_enabled: true })
        } else {
          // Other devices of the account keep their push unless this was the last one.
          const remaining = await unsubscribeThisDevice()
          if (remaining === 0) await put({ web_push_enabled: false })
        }
      },
    )

  const busy = saving.email || saving.frequency || saving.push
  const close = () => {
    if (busy) {
      toast({ title: 'Saving in progress', description: 'Please wait until your change is saved.' })
      return
    }
    onClose()
  }

  const emailOn = prefs.email_frequency !== 'none'
  const emailGate = prefs.gates.email
  const pushGate = prefs.gates.webPush
  const supported = pushSupported()
  const texts = frequencyTexts(prefs.digest_interval_minutes)

  return (
    <Modal
      onClose={close}
      aria-labelledby="notification-settings-title"
      data-testid="notification-settings"
      onClick={(e) => e.target === e.currentTarget && close()}
    >
      <article>
        <header>
          <button type="button" aria-label="Close" rel="prev" className="close-x" onClick={close} />
          <h3 id="notification-settings-title">Notification Settings</h3>
        </header>
        {loading ? (
          <p aria-busy="true">Loading preferences...</p>
        ) : (
          <>
            <fieldset>
              <label title={emailGate.allowed ? undefined : (emailGate.message ?? undefined)}>
                <input
                  type="checkbox"
                  role="switch"
                  name="email-notifications"
                  checked={emailOn}
                  disabled={saving.email || (!emailGate.allowed && !emailOn)}
                  aria-busy={saving.email}
                  onChange={(e) => setFrequency('email', e.currentTarget.checked ? lastOn.current : 'none')}
                />
                Email notifications
              </label>
              {!emailGate.allowed ? (
                <small className="locked">
                  <Icon name="lock" /> {emailGate.message}
                </small>
              ) : null}
              {emailOn ? (
                <>
                  <label>
                    How often
                    <select
                      name="email-frequency"
                      value={prefs.email_frequency}
                      disabled={saving.frequency || saving.email || !emailGate.allowed}
                      aria-busy={saving.frequency}
                      aria-describedby="email-frequency-means"
                      onChange={(e) => setFrequency('frequency', e.currentTarget.value as Frequency)}
                    >
                      <option value="batched">{texts.batched.label}</option>
                      <option value="instant">{texts.instant.label}</option>
                    </select>
                  </label>
                  <small id="email-frequency-means">{prefs.email_frequency === 'instant' ? texts.instant.means : texts.batched.means}</small>
                </>
              ) : (
                <small>You will get no alert emails. Account emails (sign-in, billing) still arrive.</small>
              )}
            </fieldset>
            <fieldset>
              <label title={pushGate.allowed ? undefined : (pushGate.message ?? undefined)}>
                <input
                  type="checkbox"
                  role="switch"
                  name="web-push"
                  checked={deviceOn}
                  disabled={saving.push || !supported || (!pushGate.allowed && !deviceOn)}
                  aria-busy={saving.push}
                  onChange={(e) => setPush(e.currentTarget.checked)}
                />
                Web push notifications on this device
              </label>
              {!pushGate.allowed ? (
                <small className="locked">
                  <Icon name="lock" /> {pushGate.message}
                </small>
              ) : null}
              {supported ? (
                <small>Alerts pop up on this device even when {config.value.appName} is closed.</small>
              ) : (
                <small>This browser does not support web push.</small>
              )}
            </fieldset>
            <QuietHours initial={prefs.quiet_hours ?? null} summary={prefs.quiet_summary ?? ''} />
            {prefs.claim_template_default ? <ClaimTemplate initial={prefs.claim_template ?? null} fallback={prefs.claim_template_default} /> : null}
            <ExternalChannels />
            <HoldSetting />
          </>
        )}
        <footer>
          <button type="button" className="secondary" onClick={close} aria-disabled={busy}>
            Done
          </button>
        </footer>
      </article>
    </Modal>
  )
}

/** Emails link to …#notification-settings: open the dialog when the page has that hash. */
export function wireNotificationSettingsLink(open: () => void) {
  const check = () => {
    if (window.location.hash === '#notification-settings') {
      open()
      history.replaceState(null, '', window.location.pathname + window.location.search)
    }
  }
  window.addEventListener('hashchange', check)
  check()
}
