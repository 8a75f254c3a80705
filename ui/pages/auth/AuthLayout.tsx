// The centred narrow card every auth page sits in (spec §2 "Auth layout").
import { TopBar } from '../../components/TopBar'

export function AuthLayout({ title, subtitle, children }: { title: string; subtitle?: React.ReactNode; children: React.ReactNode }) {
  return (
    <>
      <TopBar />
      <main className="auth-main">
        <article className="auth-card">
          <header>
            <h1>{title}</h1>
            {subtitle ? <p className="muted">{subtitle}</p> : null}
          </header>
          {children}
        </article>
      </main>
    </>
  )
}

export function GoogleButton() {
  return (
    <a href="/api/auth/google" role="button" className="outline" data-testid="google-sign-in">
      Sign in with Google
    </a>
  )
}

export function errorText(err: unknown, fallback: string): string {
  return err instanceof Error && err.message ? err.message : fallback
}
