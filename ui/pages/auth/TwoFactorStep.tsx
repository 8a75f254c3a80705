// The second step of a sign-in for two-factor accounts: 'Two-factor code' (6 digits), or a recovery
// code instead. The caller sends it (with the password it still holds, or after Google) and throws
// on a wrong code; the server's message is shown here and the field is focused again.
import { useId, useRef, useState } from 'react'
import { digitsOnly, isSixDigits, TWO_FACTOR_TEXT, type SecondFactor } from '../../two-factor'
import { errorText, FormError } from './AuthLayout'

export function TwoFactorStep({ submit, onBack }: { submit: (factor: SecondFactor) => Promise<void>; onBack: () => void }) {
  const [recovery, setRecovery] = useState(false)
  const [code, setCode] = useState('')
  const [recoveryCode, setRecoveryCode] = useState('')
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const input = useRef<HTMLInputElement>(null)
  const hintId = useId()

  const refocus = () => {
    input.current?.focus()
    input.current?.select()
  }

  async function onSubmit(e: React.FormEvent) {
    e.preventDefault()
    setError(null)
    const missing = recovery ? (recoveryCode.trim() ? null : TWO_FACTOR_TEXT.recoveryMissing) : isSixDigits(code) ? null : TWO_FACTOR_TEXT.codeHint
    if (missing !== null) {
      setError(missing)
      refocus()
      return
    }
    setBusy(true)
    try {
      await submit(recovery ? { recoveryCode: recoveryCode.trim() } : { code })
    } catch (err) {
      setError(errorText(err, 'Could not check the code. Please try again.'))
      setBusy(false)
      // The next attempt starts from an empty field; the element stays mounted, so focus it now.
      if (recovery) setRecoveryCode('')
      else setCode('')
      input.current?.focus()
    }
  }

  function toggle(e: React.MouseEvent) {
    e.preventDefault()
    setError(null)
    setRecovery((r) => !r)
  }

  return (
    <form onSubmit={onSubmit} noValidate className="two-factor-step">
      <p className="muted" id={hintId}>
        {recovery ? TWO_FACTOR_TEXT.recoveryHint : TWO_FACTOR_TEXT.codeHint}
      </p>
      {recovery ? (
        <label key="recovery">
          Recovery code
          <input
            ref={input}
            name="recoveryCode"
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            aria-describedby={hintId}
            aria-invalid={error ? true : undefined}
            value={recoveryCode}
            onChange={(e) => setRecoveryCode(e.target.value)}
            autoFocus
            required
          />
        </label>
      ) : (
        <label key="code">
          Two-factor code
          <input
            ref={input}
            name="code"
            className="otp-input"
            inputMode="numeric"
            autoComplete="one-time-code"
            pattern="[0-9]{6}"
            aria-describedby={hintId}
            aria-invalid={error ? true : undefined}
            value={code}
            onChange={(e) => setCode(digitsOnly(e.target.value))}
            autoFocus
            required
          />
        </label>
      )}
      <FormError error={error} />
      <button type="submit" aria-busy={busy} disabled={busy}>
        Verify
      </button>
      <p className="auth-links">
        <a href="#" onClick={toggle}>
          {recovery ? 'Use your authenticator app instead' : 'Use a recovery code instead'}
        </a>
        <a
          href="/login"
          onClick={(e) => {
            e.preventDefault()
            onBack()
          }}
        >
          Back
        </a>
      </p>
    </form>
  )
}
