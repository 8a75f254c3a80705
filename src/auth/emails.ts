// Account emails (HTML + plain text). Each returns a MailMessage for the outbox; the links point
// at APP_URL so they work from any mail client.
import type { Config } from '../config'
import type { MailMessage } from '../outbox/mailer'

function escape(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!)
}

function layout(config: Config, heading: string, paragraphs: string[], button?: { label: string; href: string }): string {
  const body = paragraphs.map((p) => `<p style="margin:0 0 16px">${escape(p)}</p>`).join('')
  const cta = button
    ? `<p style="margin:24px 0"><a href="${escape(button.href)}" style="background:#f59e0b;color:#111;padding:12px 20px;border-radius:6px;text-decoration:none;font-weight:bold">${escape(button.label)}</a></p>
<p style="margin:0 0 16px;font-size:13px;color:#555">If the button does not work, paste this link into your browser:<br><a href="${escape(button.href)}">${escape(button.href)}</a></p>`
    : ''
  return `<!doctype html><html><body style="font-family:system-ui,-apple-system,Segoe UI,sans-serif;color:#111;max-width:560px;margin:0 auto;padding:24px">
<h1 style="font-size:22px">${escape(heading)}</h1>${body}${cta}
<p style="font-size:12px;color:#777">${escape(config.appName)}</p></body></html>`
}

export function confirmationEmail(config: Config, to: string, name: string, link: string): MailMessage {
  const hello = name ? `Hi ${name},` : 'Hi,'
  const lines = [
    hello,
    `Thanks for signing up for ${config.appName}. Please confirm your email address to activate your account.`,
    'This link expires in 24 hours and can be used once.',
  ]
  return {
    to,
    subject: `Confirm your email for ${config.appName}`,
    text: `${lines.join('\n\n')}\n\nConfirm your email: ${link}\n\nIf you did not sign up, ignore this email.\n`,
    html: layout(config, 'Confirm Your Email', [...lines, 'If you did not sign up, ignore this email.'], { label: 'Confirm Email', href: link }),
  }
}

export function resetEmail(config: Config, to: string, link: string): MailMessage {
  const lines = [
    `Someone asked to reset the password of your ${config.appName} account.`,
    'This link expires in 1 hour and can be used once. Setting a new password signs you out everywhere.',
  ]
  return {
    to,
    subject: `Reset your ${config.appName} password`,
    text: `${lines.join('\n\n')}\n\nSet a new password: ${link}\n\nIf this was not you, ignore this email: your password stays as it is.\n`,
    html: layout(config, 'Reset Password', [...lines, 'If this was not you, ignore this email: your password stays as it is.'], {
      label: 'Set New Password',
      href: link,
    }),
  }
}

/** Sent instead of a second account when someone signs up with an address that already has one. */
export function accountExistsEmail(config: Config, to: string, loginUrl: string, forgotUrl: string): MailMessage {
  const lines = [
    `Someone (maybe you) tried to create a ${config.appName} account with this email address, which already has an account.`,
    `To sign in, go to ${loginUrl}. Forgot your password? Reset it at ${forgotUrl}.`,
    'If this was not you, you can ignore this email.',
  ]
  return {
    to,
    subject: `You already have a ${config.appName} account`,
    text: `${lines.join('\n\n')}\n`,
    html: layout(config, 'You already have an account', lines, { label: 'Sign in', href: loginUrl }),
  }
}

export type TwoFactorEvent = 'enabled' | 'disabled' | 'recovery_used'

/** Tells the owner about a change to two-factor sign-in (enabled, disabled, a recovery code used). */
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
  }[event]
  const lines = [what.line, `If this was not you, change your password at once and review two-factor authentication in your settings: ${settingsUrl}`]
  return {
    to,
    subject: `${config.appName}: ${what.subject}`,
    text: `${lines.join('\n\n')}\n`,
    html: layout(config, what.heading, lines, { label: 'Open Settings', href: settingsUrl }),
  }
}
