// App-wide signals. Capabilities add theirs here (session, access, unread counts…).
import { signal } from '@preact/signals-react'
import { api, call, within } from './client'
import type { PlanId } from '../src/access/plans'

export type PublicConfig = {
  appName: string
  productName: string
  productSlug: string
  forums: { accessories: string; deals: string }
  googleEnabled: boolean
  billingEnabled: boolean
  stripePublishableKey: string | null
  /** STRIPE_JS_URL when billing is on, else null: no Stripe script is ever loaded then. */
  stripeJsUrl: string | null
  /** Billing off: the plan every new account gets free (DEFAULT_PLAN); null with billing on or DEFAULT_PLAN=none. */
  freePlan?: PlanId | null
  demo: boolean
  /** SUPPORT_EMAIL: where 'Contact Support' drafts go (null: none configured) */
  supportEmail?: string | null
  /** REQUIRE_ADMIN_2FA: admins turn on two-factor sign-in before the admin pages open. */
  requireAdmin2fa: boolean
  /** the deals forum's name in every text: 'Gundeals', or a FORUM_PRESET pair's own ('BuildAPCSales') */
  dealsLabel?: string
  /** the scan cadence in force when the app loaded (seconds); the scan-frequency texts say it */
  scanIntervalSeconds?: number
}

const FALLBACK: PublicConfig = {
  appName: 'Dibs',
  productName: 'GAFS',
  productSlug: 'gafs',
  forums: { accessories: 'GunAccessoriesForSale', deals: 'gundeals' },
  googleEnabled: false,
  billingEnabled: false,
  stripePublishableKey: null,
  stripeJsUrl: null,
  demo: false,
  requireAdmin2fa: false,
}

export const config = signal<PublicConfig>(FALLBACK)

/** The deals forum's name in texts ('Gundeals' unless the server runs another forum pair). */
export const dealsName = () => config.value.dealsLabel ?? 'Gundeals'
export const configLoaded = signal(false)

export async function loadConfig() {
  try {
    config.value = await call(api.config.get({ fetch: within(5000) }))

    document.title = config.value.appName
  } catch {
    // keep the defaults: the app still renders; API calls will surface their own errors
  } finally {
    configLoaded.value = true
  }
}
