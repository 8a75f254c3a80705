// Settings → Account → Signed-in devices (GET /api/auth/sessions): each device with 'Sign out',
// and 'Sign out everywhere' (POST /api/auth/logout {scope: 'global'}). A device signed out here
// loses its live connection at once (the server closes its socket).
import { useCallback, useEffect, useState } from 'react'
import { api, ApiError, call, type Answer } from '../../client'
import { signOut } from '../../session'
import { toast } from '../../toast'

type Device = Answer<typeof api.auth.sessions.get>['sessions'][number]

/** 'Chrome on Linux', 'Safari on iPhone' … from a User-Agent; 'Unknown device' when unreadable. */
export function deviceName(ua: string | null): string {
  if (!ua) return 'Unknown device'
  const browser = /Edg\//.test(ua)
    ? 'Edge'
    : /Firefox\//.test(ua)
      ? 'Firefox'
      : /Chrome\/|Chromium\//.test(ua)
        ? 'Chrome'
        : /Safari\//.test(ua)
          ? 'Safari'
          : /curl|bun|node/i.test(ua)
            ? 'Script'
            : 'Browser'
  const os = /iPhone|iPad/.test(ua)
    ? 'iPhone'
    : /Android/.test(ua)
      ? 'Android'
      : /Mac OS X/.test(ua)
        ? 'macOS'
        : /Windows/.test(ua)
          ? 'Windows'
          : /Linux/.test(ua)
            ? 'Linux'
            : null
  return os ? `${browser} on ${os}` : browser
}

export function DevicesSection() {
  const [devices, setDevices] = useState<Device[] | null>(null)
  const load = useCallback(async () => {
    try {
      setDevices((await call(api.auth.sessions.get())).sessions)
    } catch (err) {
      if (!(err instanceof ApiError && err.status === 401)) toast({ title: 'Error', description: 'Failed to load your devices.', variant: 'destructive' })
    }
  }, [])
  useEffect(() => void load(), [load])

  const signOutDevice = async (d: Device) => {
    try {
      await call(api.auth.sessions({ id: d.id }).delete())

      toast({ title: 'Signed out', description: `${deviceName(d.userAgent)} was signed out.` })
      void load()
    } catch {
      toast({ title: 'Error', description: 'Failed to sign out that device.', variant: 'destructive' })
    }
  }

  return (
    <section aria-labelledby="devices-title">
      <h4 id="devices-title">Signed-in devices</h4>
      {devices === null ? (
        <p aria-busy="true">Loading devices...</p>
      ) : (
        <ul className="devices">
          {devices.map((d) => (
            <li key={d.id} data-testid="device">
              <span>
                <strong>{deviceName(d.userAgent)}</strong>
                {d.current ? <span className="badge"> This device</span> : null}
                <br />
                <small className="muted">
                  {d.ip ? `${d.ip} · ` : ''}last active {new Date(d.lastSeenAt).toLocaleString()}
                </small>
              </span>
              {d.current ? null : (
                <button type="button" className="outline secondary small" onClick={() => void signOutDevice(d)}>
                  Sign out
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      <button type="button" className="outline" onClick={() => void signOut({ scope: 'global' })}>
        Sign out everywhere
      </button>
    </section>
  )
}
