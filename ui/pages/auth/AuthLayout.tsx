// The centred narrow card every auth page sits in (spec §2 "Auth layout").
import { useSignals } from '@preact/signals-react/runtime'
import { TopBar } from '../../components/TopBar'
import { config } from '../../state'

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

/** 'or' + the Google button, only when Google sign-in is configured. */
export function GoogleAlternative() {
  useSignals()
  if (!config.value.googleEnabled) return null
  return (
    <>
      <p className="or">or</p>
      <GoogleButton />
    </>
  )
}

/** The form's error line (role alert), with optional extra content after the text. */
export function FormError({ error, children }: { error: string | null; children?: React.ReactNode }) {
  if (!error) return null
  return (
    <p className="form-error" role="alert">
      {error}
      {children}
    </p>
  )
}

export function errorText(err: unknown, fallback: string): string {
  return err instanceof Error && err.message ? err.message : fallback
}
