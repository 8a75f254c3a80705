// Theme: light | dark | system, default dark, stored under 'ui-theme' (the inline script in
// index.html applies it before first paint; this module keeps it in sync afterwards).
import { signal } from '@preact/signals-react'

export type Theme = 'light' | 'dark' | 'system'
export const THEME_KEY = 'ui-theme'

function stored(): Theme {
  try {
    const t = localStorage.getItem(THEME_KEY)
    return t === 'light' || t === 'dark' || t === 'system' ? t : 'dark'
  } catch {
    return 'dark'
  }
}

export const theme = signal<Theme>(stored())

export function resolvedTheme(t: Theme = theme.value): 'light' | 'dark' {
  if (t !== 'system') return t
  return typeof matchMedia === 'function' && matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light'
}

export function setTheme(t: Theme) {
  theme.value = t
  try {
    localStorage.setItem(THEME_KEY, t)
  } catch {}
  document.documentElement.setAttribute('data-theme', resolvedTheme(t))
}

/** The top-bar toggle flips between light and dark. */
export function toggleTheme() {
  setTheme(resolvedTheme() === 'dark' ? 'light' : 'dark')
}

// 'System' follows the device live: a change of the OS setting re-applies the theme.
if (typeof matchMedia === 'function') {
  try {
    matchMedia('(prefers-color-scheme: dark)').addEventListener('change', () => {
      if (theme.value === 'system') document.documentElement.setAttribute('data-theme', resolvedTheme('system'))
    })
  } catch {}
}
