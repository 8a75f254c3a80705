// Two-factor sign-in in the browser (issue 11 item 13): the calls behind Settings → Account and the
// pure helpers the login step and the settings section share. The server owns the secret, the codes
// and the rules (src/auth/two-factor.ts); this module only talks to it and formats what it answers.
import { api, call } from './client'
import { me, type Me } from './account'

export const TWO_FACTOR_TEXT = {
  codeHint: 'Enter the 6-digit code from your authenticator app.',
  recoveryHint: 'Enter one of the recovery codes you saved when you turned on two-factor authentication. Each code works once.',
  recoveryMissing: 'Enter one of your recovery codes.',
  // The server's words for 403 TWO_FACTOR_REQUIRED (src/auth/two-factor.ts), shown before any admin request.
  adminRequired: 'Admins must turn on two-factor authentication (Settings → Account) before opening the admin pages.',
  // ... and for 403 TWO_FACTOR_REQUIRED when two-factor is on but this session signed in without a code.
  adminSignInAgain: 'Sign in again with your two-factor code to open the admin pages.',
  passwordFirst: 'Enter your password to turn on two-factor authentication.',
  off: 'Two-factor authentication is off.',
} as const

/** What a sign-in's second step sends: a current code or a recovery code. */
export type SecondFactor = { code: string } | { recoveryCode: string }

/** What was typed or pasted into a 6-digit field, digits only ('123 456' → '123456'). */
export function digitsOnly(text: string, max = 6): string {
  return text.replace(/\D/g, '').slice(0, max)
}

export const isSixDigits = (code: string) => /^\d{6}$/.test(code)

/** The base32 secret in groups of four, as authenticator apps print it ('JBSW Y3DP …'). */
export function groupSecret(secret: string): string {
  return (secret.replace(/\s/g, '').match(/.{1,4}/g) ?? []).join(' ')
}

/** The .txt a user downloads or copies: who it is for, what the codes do, one code a line. */
export function recoveryCodesText(appName: string, email: string, codes: string[], at = new Date()): string {
  return [
    `${appName} recovery codes for ${email}`,
    `Created ${at.toISOString().slice(0, 10)}. Each code signs you in once, instead of a code from your authenticator app.`,
    '',
    ...codes,
    '',
  ].join('\n')
}

export type TwoFactorSetup = { secret: string; otpauthUrl: string; qrSvg: string }

/** Needs the password again; an account without one needs a sign-in within the last 10 minutes instead. */
export const startTwoFactor = (proof: { password: string } | Record<string, never> = {}): Promise<TwoFactorSetup> => call(api.me['2fa'].post(proof))

/** Turns it on; the server signs out every other device of the account. */
export const enableTwoFactor = (code: string) => call(api.me['2fa'].enable.post({ code }))

/** Accounts with a password prove it is them with the password, the others with a current code. */
export const disableTwoFactor = (proof: { password: string } | { code: string }) => call(api.me['2fa'].delete(proof))

/** The QR code the server drew, as an image source (the CSP allows data: images, not inline SVG markup). */
export const qrImageSrc = (qrSvg: string) => 'data:image/svg+xml;utf8,' + encodeURIComponent(qrSvg)

/**
 * Mirrors a change into `me` (and so the access cache) without waiting for the next /api/me. Turning
 * it on presented a code from this session, so the admin gate counts this session as signed in with one.
 */
export function noteTwoFactor(enabled: boolean) {
  const m = me.peek()
  if (m) me.value = { ...m, user: { ...m.user, twoFactorEnabled: enabled }, ...(enabled ? { session: { secondFactor: true } } : {}) } satisfies Me
}
