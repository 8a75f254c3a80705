// The offline badge (shown while the browser reports no network) and the install button
// (shown only when the install prompt fired and the app is not installed).
import { useSignals } from '@preact/signals-react/runtime'
import { canInstall, online, promptInstall } from '../pwa'

// Inline styles: this corner is independent of the page layouts around it.
const corner: React.CSSProperties = { position: 'fixed', left: '1rem', bottom: '5.5rem', zIndex: 1000, display: 'flex', gap: '.5rem', alignItems: 'center' }
const badge: React.CSSProperties = {
  background: '#b91c1c',
  color: '#fff',
  borderRadius: '999px',
  padding: '.25rem .75rem',
  fontSize: '.85rem',
  fontWeight: 600,
}

export function OfflineBadge() {
  useSignals()
  if (online.value) return null
  return (
    <div className="offline-badge" role="status" data-testid="offline-badge" style={badge}>
      Offline
    </div>
  )
}

export function InstallButton({ className = 'outline' }: { className?: string }) {
  useSignals()
  if (!canInstall.value) return null
  return (
    <button type="button" className={className} data-testid="install-app" onClick={() => void promptInstall()}>
      Install App
    </button>
  )
}

/** Both, floating in a corner: mounted once by ui/main.tsx beside the app. */
export function PwaStatus() {
  return (
    <div className="pwa-status" style={corner}>
      <OfflineBadge />
      <InstallButton className="secondary" />
    </div>
  )
}
