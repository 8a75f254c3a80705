// Settings → Account → Appearance: the theme as light, dark or system (spec §1). The top bar's
// toggle flips light/dark; 'System' follows the device's setting, live.
import { useSignals } from '@preact/signals-react/runtime'
import { setTheme, theme, type Theme } from '../../theme'

const CHOICES: [Theme, string][] = [
  ['light', 'Light'],
  ['dark', 'Dark'],
  ['system', 'System'],
]

export function AppearanceSection() {
  useSignals()
  return (
    <section aria-labelledby="appearance-title">
      <h4 id="appearance-title">Appearance</h4>
      <fieldset>
        <legend>Theme</legend>
        {CHOICES.map(([value, label]) => (
          <label key={value}>
            <input type="radio" name="theme" value={value} checked={theme.value === value} onChange={() => setTheme(value)} />
            {label}
          </label>
        ))}
      </fieldset>
    </section>
  )
}
