// /auth/callback: where Google sign-in returns. The server already set the session cookie (or
// put ?error=…); this page loads the session and goes on to the dashboard, or back to /login
// with 'Google login failed' / 'Could not sign in with Google.'.
import { useEffect } from 'react'
import { useLocation, useSearch } from 'wouter'
import { authStatus, initAuth } from '../../session'
import { toast } from '../../toast'
import { AuthLayout } from './AuthLayout'
import { returnPath } from '../../lib/return-to'

export function AuthCallback() {
  const error = new URLSearchParams(useSearch()).get('error')
  const [, navigate] = useLocation()
  useEffect(() => {
    const fail = () => {
      toast({ title: 'Google login failed', description: 'Could not sign in with Google.', variant: 'destructive' })
      navigate('/login', { replace: true })
    }
    if (error) return fail()
    void initAuth(true).then(() => (authStatus.value === 'authenticated' ? navigate(returnPath(''), { replace: true }) : fail()))
  }, [error])
  return (
    <AuthLayout title="Signing you in...">
      <p aria-busy="true">Please wait while we finish signing you in.</p>
    </AuthLayout>
  )
}
