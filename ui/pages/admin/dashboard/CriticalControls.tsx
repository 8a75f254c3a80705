// Admin → Dashboard, Critical System Controls: the Emergency Killswitch (on while NOT paused) and
// Maintenance Mode. State and saving: ./useDashboard.ts.
import { useSignals } from '@preact/signals-react/runtime'
import { systemSettings } from '../../../admin'
import { useSwitches } from './useDashboard'

function SwitchRow(props: {
  id: string
  title: string
  description: string
  checked: boolean | null
  busy: boolean
  label: string
  badge: { text: string; tone: 'danger' | 'ok' | 'warning' }
  onChange: (checked: boolean) => void
}) {
  return (
    <div className="control-row">
      <div>
        <h3 id={`${props.id}-title`}>
          {props.title}{' '}
          <span className={`badge status-badge tone-${props.badge.tone}`} data-testid={`${props.id}-badge`}>
            {props.badge.text}
          </span>
        </h3>
        <p className="muted">{props.description}</p>
      </div>
      <label className="switch-label">
        <input
          type="checkbox"
          role="switch"
          data-testid={`${props.id}-switch`}
          aria-describedby={`${props.id}-title`}
          checked={props.checked ?? false}
          disabled={props.checked === null || props.busy}
          aria-busy={props.busy}
          onChange={(e) => props.onChange(e.currentTarget.checked)}
        />
        {props.label}
      </label>
    </div>
  )
}

export function CriticalControls() {
  useSignals()
  const s = systemSettings.value
  const { busy, save } = useSwitches()
  const paused = s?.is_emergency_paused ?? null
  const maintenance = s?.is_maintenance_mode_active ?? null

  return (
    <article className="admin-card critical-controls" aria-labelledby="critical-title">
      <header>
        <h2 id="critical-title">Critical System Controls</h2>
      </header>
      <SwitchRow
        id="emergency"
        title="Emergency Killswitch"
        description="On: scanning, matching and alerting run. Off: everything stops at once (emergency pause) until switched back on."
        label="System operations"
        checked={paused === null ? null : !paused}
        busy={busy === 'is_emergency_paused'}
        badge={paused ? { text: 'PAUSED', tone: 'danger' } : { text: 'ACTIVE', tone: 'ok' }}
        onChange={(on) => void save('is_emergency_paused', !on)}
      />
      <SwitchRow
        id="maintenance"
        title="Maintenance Mode"
        description="Signed-in users see a maintenance page and the API answers them 503; admins keep working, scanning and alerts go on."
        label="Maintenance mode"
        checked={maintenance}
        busy={busy === 'is_maintenance_mode_active'}
        badge={maintenance ? { text: 'MAINTENANCE', tone: 'warning' } : { text: 'NORMAL', tone: 'ok' }}
        onChange={(on) => void save('is_maintenance_mode_active', on)}
      />
    </article>
  )
}
