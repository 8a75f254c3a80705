// Google sign-in behind one small module (arctic 3.7 is the last release). arctic's Google class
// has Google's endpoints built in, so the generic OAuth2Client is used with the endpoints from
// config (Google's by default; tests point them at tests/fakes/google.ts). Authorization code
// flow with PKCE (S256) and a state value, both kept in short-lived HttpOnly cookies.
import { CodeChallengeMethod, OAuth2Client, generateCodeVerifier, generateState } from 'arctic'
import type { Config } from '../config'

export const STATE_COOKIE = 'google_oauth_state'
export const VERIFIER_COOKIE = 'google_code_verifier'
export const OAUTH_COOKIE_MAX_AGE = 600
const SCOPES = ['openid', 'profile', 'email']

export type GoogleProfile = { sub: string; email: string; emailVerified: boolean; name: string }

export function googleEnabled(config: Config): boolean {
  return config.google.clientId !== null && config.google.clientSecret !== null
}

function client(config: Config) {
  return new OAuth2Client(config.google.clientId!, config.google.clientSecret!, `${config.appUrl}/api/auth/google/callback`)
}

export function startGoogleSignIn(config: Config): { url: URL; state: string; codeVerifier: string } {
  const state = generateState()
  const codeVerifier = generateCodeVerifier()
  const url = client(config).createAuthorizationURLWithPKCE(config.google.authUrl, state, CodeChallengeMethod.S256, codeVerifier, SCOPES)
  url.searchParams.set('prompt', 'select_account')
  return { url, state, codeVerifier }
}

/** Exchanges the code (with the PKCE verifier) and reads the profile from the userinfo endpoint. */
export async function finishGoogleSignIn(config: Config, code: string, codeVerifier: string): Promise<GoogleProfile> {
  const tokens = await client(config).validateAuthorizationCode(config.google.tokenUrl, code, codeVerifier)
  const res = await fetch(config.google.userInfoUrl, {
    headers: { authorization: `Bearer ${tokens.accessToken()}` },
    signal: AbortSignal.timeout(10_000),
  })
  if (!res.ok) throw new Error(`userinfo answered ${res.status}`)
  const info = (await res.json()) as { sub?: unknown; email?: unknown; email_verified?: unknown; name?: unknown }
  if (typeof info.sub !== 'string' || typeof info.email !== 'string') throw new Error('userinfo lacks sub or email')
  return {
    sub: info.sub,
    email: info.email.trim().toLowerCase(),
    emailVerified: info.email_verified === true || info.email_verified === 'true',
    name: typeof info.name === 'string' ? info.name.slice(0, 100) : '',
  }
}
