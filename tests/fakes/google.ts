// A fake Google OAuth2 / OpenID provider that speaks the real protocol: the authorize endpoint
// (consents at once and redirects back with code + state), the token endpoint (client secret by
// HTTP Basic, single-use code, redirect_uri and PKCE S256 code_verifier all verified) and the
// userinfo endpoint (Bearer access token). Failure modes make the next step fail on purpose.
import { createHash, randomBytes } from 'node:crypto'

export type FakeProfile = { sub: string; email: string; email_verified: boolean; name: string }
export type FailureMode = 'deny' | 'token_error' | 'userinfo_error' | null

type Grant = { clientId: string; redirectUri: string; challenge: string; method: string; profile: FakeProfile; used: boolean }

const b64url = (buf: Buffer | string) => Buffer.from(buf).toString('base64url')

export async function startFakeGoogle(opts: { clientId?: string; clientSecret?: string } = {}) {
  const clientId = opts.clientId ?? 'fake-client-id.apps.googleusercontent.com'
  const clientSecret = opts.clientSecret ?? 'fake-client-secret'
  const codes = new Map<string, Grant>()
  const accessTokens = new Map<string, FakeProfile>()
  const state = {
    profile: { sub: '1000001', email: 'gina@example.com', email_verified: true, name: 'Gina Google' } as FakeProfile,
    failure: null as FailureMode,
    tokenRequests: [] as { ok: boolean; reason?: string }[],
    authorizeRequests: [] as URLSearchParams[],
  }
  const tokenError = (reason: string, status = 400) => {
    state.tokenRequests.push({ ok: false, reason })
    return Response.json({ error: reason === 'invalid_client' ? 'invalid_client' : 'invalid_grant', error_description: reason }, { status })
  }

  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    async fetch(req) {
      const url = new URL(req.url)
      if (url.pathname === '/o/oauth2/v2/auth' && req.method === 'GET') {
        const q = url.searchParams
        state.authorizeRequests.push(q)
        const redirectUri = q.get('redirect_uri')
        if (q.get('client_id') !== clientId || !redirectUri) return new Response('invalid_client', { status: 400 })
        if (q.get('response_type') !== 'code' || !q.get('code_challenge')) return new Response('invalid_request', { status: 400 })
        const back = new URL(redirectUri)
        if (q.get('state')) back.searchParams.set('state', q.get('state')!)
        if (state.failure === 'deny') {
          back.searchParams.set('error', 'access_denied')
        } else {
          const code = b64url(randomBytes(24))
          codes.set(code, {
            clientId,
            redirectUri,
            challenge: q.get('code_challenge')!,
            method: q.get('code_challenge_method') ?? 'plain',
            profile: { ...state.profile },
            used: false,
          })
          back.searchParams.set('code', code)
        }
        return new Response(null, { status: 302, headers: { location: back.toString() } })
      }
      if (url.pathname === '/token' && req.method === 'POST') {
        if (state.failure === 'token_error') return tokenError('server refused', 500)
        const auth = req.headers.get('authorization') ?? ''
        const [id, secret] = Buffer.from(auth.replace(/^Basic /, ''), 'base64')
          .toString()
          .split(':')
          .map(decodeURIComponent)
        if (id !== clientId || secret !== clientSecret) return tokenError('invalid_client', 401)
        const form = new URLSearchParams(await req.text())
        if (form.get('grant_type') !== 'authorization_code') return tokenError('unsupported_grant_type')
        const grant = codes.get(form.get('code') ?? '')
        if (!grant || grant.used) return tokenError('unknown or used code')
        grant.used = true
        if (form.get('redirect_uri') !== grant.redirectUri) return tokenError('redirect_uri mismatch')
        const verifier = form.get('code_verifier') ?? ''
        const expected = grant.method === 'S256' ? b64url(createHash('sha256').update(verifier).digest()) : verifier
        if (!verifier || expected !== grant.challenge) return tokenError('code_verifier mismatch')
        const accessToken = b64url(randomBytes(24))
        accessTokens.set(accessToken, grant.profile)
        state.tokenRequests.push({ ok: true })
        const idToken = [
          b64url(JSON.stringify({ alg: 'none', typ: 'JWT' })),
          b64url(JSON.stringify({ iss: 'https://accounts.google.com', aud: clientId, ...grant.profile })),
          '',
        ].join('.')
        return Response.json({ access_token: accessToken, token_type: 'Bearer', expires_in: 3599, scope: 'openid email profile', id_token: idToken })
      }
      if (url.pathname === '/v1/userinfo' && req.method === 'GET') {
        if (state.failure === 'userinfo_error') return new Response('unavailable', { status: 503 })
        const profile = accessTokens.get((req.headers.get('authorization') ?? '').replace(/^Bearer /, ''))
        if (!profile) return Response.json({ error: 'invalid_token' }, { status: 401 })
        return Response.json(profile)
      }
      return new Response('not found', { status: 404 })
    },
  })
  const base = `http://127.0.0.1:${server.port}`
  return {
    url: base,
    env: {
      GOOGLE_CLIENT_ID: clientId,
      GOOGLE_CLIENT_SECRET: clientSecret,
      GOOGLE_AUTH_URL: `${base}/o/oauth2/v2/auth`,
      GOOGLE_TOKEN_URL: `${base}/token`,
      GOOGLE_USERINFO_URL: `${base}/v1/userinfo`,
    },
    state,
    setProfile(p: Partial<FakeProfile>) {
      state.profile = { ...state.profile, ...p }
    },
    fail(mode: FailureMode) {
      state.failure = mode
    },
    stop: () => server.stop(true),
  }
}
