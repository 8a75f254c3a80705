import { useSignals } from '@preact/signals-react/runtime'
import { resolvedTheme, theme, toggleTheme } from '../theme'
import { Icon } from './Icon'

export function ThemeToggle() {
  useSignals()
  const dark = resolvedTheme(theme.value) === 'dark'
  return (
    <button
      type="button"
      className="theme-toggle outline secondary"
      data-testid="theme-toggle"
      aria-label={dark ? 'Switch to light theme' : 'Switch to dark theme'}
      title={dark ? 'Switch to light theme' : 'Switch to dark theme'}
      onClick={toggleTheme}
    >
      <Icon name={dark ? 'sun' : 'moon'} />
    </button>
  )
}
