import { useEffect } from 'react'
import { Link, useLocation } from 'wouter'

export function NotFound() {
  const [path] = useLocation()
  useEffect(() => {
    console.warn(`404: no page at ${path}`)
  }, [path])
  return (
    <main className="container centered">
      <div>
        <h1 style={{ fontSize: '4rem', marginBottom: 0 }}>404</h1>
        <h2>Page not found</h2>
        <p className="muted">
          <code data-testid="missing-path">{path}</code>
        </p>
        <div role="group" style={{ justifyContent: 'center', display: 'flex', gap: '1rem' }}>
          <Link href="/" role="button">
            Return Home
          </Link>
          <button type="button" className="secondary" onClick={() => window.location.reload()}>
            Reload App
          </button>
        </div>
      </div>
    </main>
  )
}
