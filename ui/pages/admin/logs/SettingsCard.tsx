// Admin → Logs, the Scan settings card: interval (or adaptive) and max Reddit requests per minute,
// applied without a restart. The form's state, save and reset: ./useLogs.ts.
import { formatWhen } from '../../../admin'
import { useScanSettingsForm, type Settings } from './useLogs'

export function SettingsCard({ settings, reload }: { settings: Settings | null; reload: () => void }) {
  const { adaptive, setAdaptive, interval, setIntervalValue, cap, setCap, saving, error, submit, reset } = useScanSettingsForm(settings, reload)
  if (!settings) return null
  return (
    <article className="admin-card" aria-labelledby="settings-title">
      <header>
        <h2 id="settings-title">Scan settings</h2>
      </header>
      {!settings.applicable ? (
        <p className="muted">The demo forum has no Reddit rate budget: its interval comes from SCAN_INTERVAL_SECONDS and there is nothing to set here.</p>
      ) : (
        <form onSubmit={submit} noValidate>
          <fieldset>
            <label>
              <input type="checkbox" role="switch" checked={adaptive} onChange={(e) => setAdaptive(e.currentTarget.checked)} />
              Adaptive interval (the rate budget decides)
            </label>
            <label>
              Scan interval (seconds)
              <input
                type="number"
                inputMode="decimal"
                min={settings.minIntervalSeconds ?? 1}
                max={3600}
                step="0.5"
                value={interval}
                disabled={adaptive}
                onChange={(e) => setIntervalValue(e.currentTarget.value)}
                aria-describedby="interval-help"
              />
              <small id="interval-help">
                At least {settings.minIntervalSeconds} s at {settings.maxRequestsPerMinute} requests per minute; at most 3600 s.
              </small>
            </label>
            <label>
              Max Reddit requests per minute
              <input
                type="number"
                inputMode="numeric"
                min={1}
                max={settings.modeCapPerMinute ?? undefined}
                step="1"
                value={cap}
                onChange={(e) => setCap(e.currentTarget.value)}
                aria-describedby="cap-help"
                aria-invalid={error !== null ? true : undefined}
              />
              <small id="cap-help">
                1 to {settings.modeCapPerMinute} ({settings.mode} mode allows {settings.modeCapPerMinute}).
              </small>
            </label>
          </fieldset>
          {error ? (
            <p role="alert" className="text-danger">
              {error}
            </p>
          ) : null}
          <div className="button-row">
            <button type="submit" aria-busy={saving} disabled={saving}>
              Save settings
            </button>
            <button type="button" className="outline secondary" onClick={reset} disabled={settings.source === 'environment'}>
              Reset to environment
            </button>
          </div>
          <p className="muted small-text">
            In force: {settings.source === 'stored' ? `saved ${formatWhen(settings.updatedAt)}` : 'environment defaults'}. Active instances are not set here:
            one Dibs process does all the scanning, so there is nothing to scale.
          </p>
        </form>
      )}
    </article>
  )
}
