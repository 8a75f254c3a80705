// The billing email: a renewal payment failed (sent once per failed period, through the outbox).
import type { Config } from '../config'
import { composeEmail } from '../lib/email-layout'
import type { MailMessage } from '../outbox/mailer'

type Brand = Pick<Config, 'appName' | 'appUrl'>

export function paymentFailedEmail(brand: Brand, to: string, accessUntil: Date): MailMessage {
  return composeEmail(to, `Your ${brand.appName} payment failed: please update your card`, {
    appName: brand.appName,
    heading: 'Please Update Your Card',
    blocks: [
      'We could not charge your card for your subscription renewal.',
      `Your access continues until ${accessUntil.toUTCString()} while we retry. Update your card to keep your alerts running.`,
    ],
    button: { label: 'Update your card', href: `${brand.appUrl}/dashboard/subscription` },
  })
}
