// Account emails (HTML + plain text) in the one shared layout (src/lib/email-layout.ts). Each
// returns a MailMessage for the outbox; the links point at APP_URL so they work from any mail client.
import type { Config } from '../config'
import { composeEmail } from '../lib/email-layout'
import type { MailMessage } from '../outbox/mailer'

export function confirmationEmail(config: Config, to: string, name: string, link: string): MailMessage {
  return composeEmail(to, `Confirm your email for ${config.appName}`, {
    appName: config.appName,
    heading: 'Confirm Your Email',
    blocks: [
      name ? `Hi ${name},` : 'Hi,',
      `Thanks for signing up for ${config.appName}. Please confirm your email address to activate your account.`,
      'This link expires in 24 hours and can be used once.',
      'If you did not sign up, ignore this email.',
    ],
    button: { label: 'Confirm Email', href: link },
  })
}

export function resetEmail(config: Config, to: string, link: string): MailMessage {
  return composeEmail(to, `Reset your ${config.appName} password`, {
    appName: config.appName,
    heading: 'Reset Password',
    blocks: [
      `Someone asked to reset the password of your ${config.appName} account.`,
      'This link expires in 1 hour and can be used once. Setting a new password signs you out everywhere.',
      'If this was not you, ignore this email: your password stays as it is.',
    ],
    button: { label: 'Set New Password', href: link },
  })
}

/** Sent instead of a second account when someone signs up with an address that already has one. */
export function accountExistsEmail(config: Config, to: string, loginUrl: string, forgotUrl: string): MailMessage {
  return composeEmail(to, `You already have a ${config.appName} account`, {
    appName: config.appName,
    heading: 'You already have an account',
    blocks: [
      `Someone (maybe you) tried to create a ${config.appName} account with this email address, which already has an account.`,
      "To sign in, use 'Sign in' below. Forgot your password? Set a new one:",
      { links: [{ label: 'Reset your password', href: forgotUrl }] },
      'If this was not you, you can ignore this email.',
    ],
    button: { label: 'Sign in', href: loginUrl },
  })
}

export type TwoFactorEvent = 'enabled' | 'disabled' | 'recovery_used' | 'code_reused'

/** Tells the owner about two-factor sign-in: enabled, disabled, a recovery code used, a code used twice. */
export function twoFactorEmail(config: Config, to: string, event: TwoFactorEvent, settingsUrl: string, remaining?: number): MailMessage {
  const what = {
    enabled: {
      subject: 'Two-factor authentication is on',
      heading: 'Two-factor authentication turned on',
      line: 'Two-factor authentication was turned on for your account. Signing in now also asks for a code from your authenticator app.',
    },
    disabled: {
      subject: 'Two-factor authentication is off',
      heading: 'Two-factor authentication turned off',
      line: 'Two-factor authentication was turned off for your account. Signing in now needs only your password.',
    },
    recovery_used: {
      subject: 'A recovery code was used to sign in',
      heading: 'Recovery code used',
      line: `A one-time recovery code was used to sign in to your account. ${remaining ?? 0} recovery code${remaining === 1 ? '' : 's'} left.`,
    },
    code_reused: {
      subject: 'A sign-in code was used twice',
      heading: 'Sign-in code used twice',
      line: 'A code from your authenticator app that had already been used was entered again to sign in to your account, and refused. If you did not just enter the same code twice, someone else may know your password and have seen a code.',
    },
  }[event]
  return composeEmail(to, `${config.appName}: ${what.subject}`, {
    appName: config.appName,
    heading: what.heading,
    blocks: [what.line, 'If this was not you, change your password at once and review two-factor authentication in your settings.'],
    button: { label: 'Open Settings', href: settingsUrl },
  })
}
