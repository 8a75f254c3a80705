// The resend button of /check-email and of an expired confirmation link (spec §4: idle →
// resending → idle; §8 texts; §5 'Email address unknown').
import { useState } from 'react'
import { api, ApiError, call } from '../../client'
import { toast } from '../../toast'

export function ResendConfirmation({ email }: { email: string }) {
  const [state, setState] = useState<'idle' | 'resending'>('idle')
  async function resend() {
    setState('resending')
    try {
      const r = await call(api.auth.resend.post({ email }))

      toast({ title: r.title, description: r.message })
    } catch (err) {
      const body = err instanceof ApiError ? (err.body as { error?: { title?: string; message?: string } } | null)?.error : undefined
      toast({ title: body?.title ?? 'Failed to resend confirmation', description: body?.message ?? 'Please try again later.', variant: 'destructive' })
    } finally {
      setState('idle')
    }
  }
  return (
    <button type="button" className="secondary" onClick={resend} disabled={state === 'resending' || !email.trim()} aria-busy={state === 'resending'}>
      {state === 'resending' ? 'Resending...' : 'Resend confirmation email'}
    </button>
  )
}
