// Settings → Account → 'Two-factor authentication' (issue 11 item 13). Off: 'Turn on' → the password
// again (an account without one goes straight on: the server asks for a recent sign-in instead) → the QR
// code and the secret as text → a 6-digit code → 'Confirm' → the 10 recovery codes, shown this once;
// the server signs out every other device then. On: 'Turn off' with the password (or a current code
// when the account has none).
import { useEffect, useId, useState } from 'react'
import { useSignals } from '@preact/signals-react/runtime'
import { loadMe, me } from '../../account'
import { ApiError } from '../../client'
import { config } from '../../state'
import { errorToast, toast } from '../../toast'
import { CopyButton } from '../../components/CopyButton'
import {
  digitsOnly,
  disableTwoFactor,
  enableTwoFactor,
  groupSecret,
  isSixDigits,
  noteTwoFactor,
  qrImageSrc,
  recoveryCodesText,
  startTwoFactor,
  TWO_FACTOR_TEXT,
  type TwoFactorSetup,
} from '../../two-factor'

type Phase = { kind: 'idle' } | { kind: 'password' } | { kind: 'setup'; setup: TwoFactorSetup } | { kind: 'codes'; codes: string[] } | { kind: 'disable' }

const message = (err: unknown, fallback: string) => (err instanceof ApiError ? err.message : fallback)

export function TwoFactorSection() {
  useSignals()
  const [phase, setPhase] = useState<Phase>({ kind: 'idle' })
  const [busy, setBusy] = useState(false)
  const headingId = useId()
  // The cached `me` may predate a change made elsewhere: the status shown here is read fresh.
  useEffect(() => {
    void loadMe()
  }, [])
  const user = me.value?.user
  const on = user?.twoFactorEnabled

  async function turnOn() {
    if (user?.hasPassword !== false) return setPhase({ kind: 'password' })
    setBusy(true)
    try {
      setPhase({ kind: 'setup', setup: await startTwoFactor() })
    } catch (err) {
      if (err instanceof ApiError && err.code === 'TWO_FACTOR_ON') noteTwoFactor(true)
      errorToast(message(err, 'Could not start two-factor setup. Please try again.'))
    } finally {
      setBusy(false)
    }
  }

  return (
    <section className="two-factor" aria-labelledby={headingId}>
      <h4 id={headingId}>Two-factor authentication</h4>
      <p>
        Status:{' '}
        <strong className={on ? 'status-on' : 'status-off'} data-testid="two-factor-status">
          {on === undefined ? '…' : on ? 'On' : 'Off'}
        </strong>
      </p>
      {phase.kind === 'password' ? (
        <PasswordFirst onCancel={() => setPhase({ kind: 'idle' })} onStarted={(setup) => setPhase({ kind: 'setup', setup })} />
      ) : phase.kind === 'setup' ? (
        <Enrol
          setup={phase.setup}
          onCancel={() => setPhase({ kind: 'idle' })}
          onEnabled={(codes) => {
            noteTwoFactor(true)
            setPhase({ kind: 'codes', codes })
          }}
        />
      ) : phase.kind === 'codes' ? (
        <RecoveryCodes codes={phase.codes} email={user?.email ?? ''} onDone={() => setPhase({ kind: 'idle' })} />
      ) : phase.kind === 'disable' ? (
        <Disable
          withPassword={user?.hasPassword !== false}
          onCancel={() => setPhase({ kind: 'idle' })}
          onDisabled={(text) => {
            noteTwoFactor(false)
            setPhase({ kind: 'idle' })
            toast({ title: 'Two-factor authentication', description: text })
          }}
        />
      ) : on ? (
        <>
          <p className="muted">Signing in asks for a code from your authenticator app (or a recovery code) after your password.</p>
          <button type="button" className="danger outline" onClick={() => setPhase({ kind: 'disable' })}>
            Turn off
          </button>
        </>
      ) : (
        <>
          <p className="muted">Protect your account with a second step at sign-in: a 6-digit code from an authenticator app on your phone.</p>
          <button type="button" onClick={turnOn} aria-busy={busy} disabled={busy || on === undefined}>
            Turn on
          </button>
        </>
      )}
    </section>
  )
}

/** The password again before the secret is shown: a session alone does not turn two-factor on. */
function PasswordFirst({ onCancel, onStarted }: { onCancel: () => void; onStarted: (setup: TwoFactorSetup) => void }) {
  const [password, setPassword] = useState('')
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)

  async function submit(e: React.FormEvent) {
    e.preventDefault()
    setError(null)
    if (!password) return setError('Please enter your password.')
    setBusy(true)
    try {
      onStarted(await startTwoFactor({ password }))
    } catch (err) {
      if (err instanceof ApiError && err.code === 'TWO_FACTOR_ON') noteTwoFactor(true)
      setError(message(err, 'Could not start two-factor setup. Please try again.'))
      setPassword('')
      setBusy(false)
    }
  }

  return (
    <form onSubmit={submit} noValidate className="two-factor-password">
      <p>{TWO_FACTOR_TEXT.passwordFirst}</p>
      <label>
        Password
        <input
          type="password"
          name="password"
          autoComplete="current-password"
          aria-invalid={error ? true : undefined}
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          autoFocus
        />
      </label>
      {error ? (
        <p className="error-text" role="alert">
          {error}
        </p>
      ) : null}
      <div className="grid">
        <button type="button" className="secondary" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" aria-busy={busy} disabled={busy}>
          Continue
        </button>
      </div>
    </form>
  )
}

/** The QR code, the secret as text and the first code, which proves the app has the secret. */
function Enrol({ setup, onCancel, onEnabled }: { setup: TwoFactorSetup; onCancel: () => void; onEnabled: (codes: string[]) => void }) {
  const [code, setCode] = useState('')
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const codeId = useId()

  async function confirm(e: React.FormEvent) {
    e.preventDefault()
    setError(null)
    if (!isSixDigits(code)) return setError(TWO_FACTOR_TEXT.codeHint)
    setBusy(true)
    try {
      const on = await enableTwoFactor(code)
      onEnabled(on.recoveryCodes)
      if (on.message) toast({ title: 'Two-factor authentication', description: on.message })
    } catch (err) {
      setError(message(err, 'Could not turn on two-factor authentication. Please try again.'))
      setCode('')
      setBusy(false)
    }
  }

  return (
    <ol className="two-factor-steps">
      <li>
        <p>Scan this QR code with an authenticator app (for example Google Authenticator, Microsoft Authenticator, 1Password or Aegis).</p>
        <img className="qr-code" src={qrImageSrc(setup.qrSvg)} alt="QR code for your authenticator app" width={200} height={200} />
      </li>
      <li>
        <p>Can&apos;t scan it? Enter this key in the app instead:</p>
        <p className="secret-row">
          <code className="secret" data-testid="two-factor-secret">
            {groupSecret(setup.secret)}
          </code>
          <CopyButton text={setup.secret} label="Copy key" className="copy" />
        </p>
      </li>
      <li>
        <form onSubmit={confirm} noValidate>
          <label htmlFor={codeId}>Enter the 6-digit code the app shows</label>
          <div className="code-row">
            <input
              id={codeId}
              name="code"
              className="otp-input"
              inputMode="numeric"
              autoComplete="one-time-code"
              pattern="[0-9]{6}"
              aria-invalid={error ? true : undefined}
              value={code}
              onChange={(e) => setCode(digitsOnly(e.target.value))}
              autoFocus
            />
            <button type="submit" aria-busy={busy} disabled={busy}>
              Confirm
            </button>
          </div>
          {error ? (
            <p className="error-text" role="alert">
              {error}
            </p>
          ) : null}
          <button type="button" className="secondary outline" onClick={onCancel}>
            Cancel
          </button>
        </form>
      </li>
    </ol>
  )
}

/** The 10 recovery codes, shown once: copy, download as .txt, then 'Done' forgets them. */
function RecoveryCodes({ codes, email, onDone }: { codes: string[]; email: string; onDone: () => void }) {
  const text = recoveryCodesText(config.value.appName, email, codes)
  const [href, setHref] = useState<string | null>(null)
  useEffect(() => {
    const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }))
    setHref(url)
    return () => URL.revokeObjectURL(url)
  }, [text])

  return (
    <div className="recovery">
      <p className="recovery-warning" role="alert">
        <strong>Two-factor authentication is on. Save these recovery codes now.</strong> Each one signs you in once if you lose your authenticator app. They
        will not be shown again.
      </p>
      <ol className="recovery-codes" data-testid="recovery-codes">
        {codes.map((c) => (
          <li key={c}>
            <code>{c}</code>
          </li>
        ))}
      </ol>
      <div className="recovery-actions">
        <CopyButton text={text} label="Copy codes" />
        {href ? (
          <a href={href} download={`${config.value.appName.toLowerCase()}-recovery-codes.txt`} role="button" className="secondary outline">
            Download .txt
          </a>
        ) : null}
        <button type="button" onClick={onDone}>
          Done
        </button>
      </div>
    </div>
  )
}

/** Turning it off proves the owner: the password, or a current code for an account without one. */
function Disable({ withPassword, onCancel, onDisabled }: { withPassword: boolean; onCancel: () => void; onDisabled: (message: string) => void }) {
  const [value, setValue] = useState('')
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)

  async function submit(e: React.FormEvent) {
    e.preventDefault()
    setError(null)
    if (withPassword ? !value : !isSixDigits(value)) return setError(withPassword ? 'Please enter your password.' : TWO_FACTOR_TEXT.codeHint)
    setBusy(true)
    try {
      const res = await disableTwoFactor(withPassword ? { password: value } : { code: value })
      onDisabled(res.message ?? TWO_FACTOR_TEXT.off)
    } catch (err) {
      setError(message(err, 'Could not turn off two-factor authentication. Please try again.'))
      setValue('')
      setBusy(false)
    }
  }

  return (
    <form onSubmit={submit} noValidate className="two-factor-disable">
      <p>Without it, your password alone signs you in.</p>
      {withPassword ? (
        <label>
          Password
          <input type="password" name="password" autoComplete="current-password" value={value} onChange={(e) => setValue(e.target.value)} autoFocus />
        </label>
      ) : (
        <label>
          Two-factor code
          <input
            name="code"
            className="otp-input"
            inputMode="numeric"
            autoComplete="one-time-code"
            pattern="[0-9]{6}"
            value={value}
            onChange={(e) => setValue(digitsOnly(e.target.value))}
            autoFocus
          />
        </label>
      )}
      {error ? (
        <p className="error-text" role="alert">
          {error}
        </p>
      ) : null}
      <div className="grid">
        <button type="button" className="secondary" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" className="danger" aria-busy={busy} disabled={busy}>
          Turn off two-factor authentication
        </button>
      </div>
    </form>
  )
}
