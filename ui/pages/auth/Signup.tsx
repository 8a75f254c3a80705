// /signup (spec §2, §5): name, email, password, confirm password; on success to /check-email
// with the email kept in session storage (the server answers the same for a taken email).
import { useState } from 'react'
import { useSignals } from '@preact/signals-react/runtime'
import { Link, useLocation } from 'wouter'
import { api, call } from '../../client'
import { REGISTRATION_EMAIL_KEY } from '../../session'
import { toast } from '../../toast'
import { freePlanName } from '../../components/BillingOff'
import { AuthLayout, FormError, GoogleAlternative, errorText } from './AuthLayout'

export function signupProblem(f: { name: string; email: string; password: string; confirm: string }): string | null {
  if (!f.name.trim() || !f.email.trim() || !f.password || !f.confirm) return 'All fields are required'
  if (f.password !== f.confirm) return 'Passwords do not match'
  if (f.password.length < 8) return 'Password must be at least 8 characters long'
  return null
}

export function Signup() {
  useSignals()
  const [, navigate] = useLocation()
  const [form, setForm] = useState({ name: '', email: '', password: '', confirm: '' })
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const free = freePlanName() // billing off: no trial to promise
  const field = (k: keyof typeof form) => ({ value: form[k], onChange: (e: React.ChangeEvent<HTMLInputElement>) => setForm({ ...form, [k]: e.target.value }) })

  async function submit(e: React.FormEvent) {
    e.preventDefault()
    const problem = signupProblem(form)
    setError(problem)
    if (problem) return
    setBusy(true)
    try {
      await call(api.auth.signup.post({ name: form.name, email: form.email, password: form.password }))

      sessionStorage.setItem(REGISTRATION_EMAIL_KEY, form.email.trim())
      navigate('/check-email')
    } catch (err) {
      const message = errorText(err, 'Registration failed. Please try again.')
      setError(message)
      toast({ title: 'Registration failed', description: message, variant: 'destructive' })
    } finally {
      setBusy(false)
    }
  }

  return (
    <AuthLayout title="Create an account" subtitle={free ? `Free: ${free} for every new account` : 'Start your 7-day free trial'}>
      <form onSubmit={submit} noValidate>
        <label>
          Name
          <input name="name" autoComplete="name" {...field('name')} required />
        </label>
        <label>
          Email
          <input type="email" name="email" autoComplete="email" {...field('email')} required />
        </label>
        <label>
          Password
          <input type="password" name="password" autoComplete="new-password" {...field('password')} required minLength={8} />
        </label>
        <label>
          Confirm password
          <input type="password" name="confirm" autoComplete="new-password" {...field('confirm')} required minLength={8} />
        </label>
        <FormError error={error} />
        <button type="submit" aria-busy={busy} disabled={busy}>
          Create account
        </button>
      </form>
      <GoogleAlternative />
      <footer>
        <p>
          Already have an account? <Link href="/login">Sign in</Link>
        </p>
      </footer>
    </AuthLayout>
  )
}
