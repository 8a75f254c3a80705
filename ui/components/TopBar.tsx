import { useSignals } from '@preact/signals-react/runtime'
import { Link } from 'wouter'
import { config } from '../state'
import { ThemeToggle } from './ThemeToggle'

export function TopBar({ children }: { children?: React.ReactNode }) {
  useSignals()
  return (
    <header className="topbar">
      <Link href="/" className="brand">
        <span>{config.value.appName}</span>
      </Link>
      {children}
      <ThemeToggle />
    </header>
  )
}
