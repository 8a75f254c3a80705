// The pure checks of `dibs doctor`: key shapes and pairs, read from the configuration alone.
import { createECDH } from 'node:crypto'
import type { Config } from '../config'
import type { CheckResult } from './doctor-report'

const b64url = (s: string) => Buffer.from(s.replace(/-/g, '+').replace(/_/g, '/'), 'base64')

/** VAPID: a P-256 key pair in base64url (65-byte uncompressed public key, 32-byte private key) that belong together. */
export function checkVapid(vapid: Config['secrets']['vapid']): CheckResult {
  const fix =
    'generate a pair with `bunx web-push generate-vapid-keys` and set VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY (or unset both: DATA_DIR/secrets.json keeps a generated pair)'
  const pub = b64url(vapid.publicKey)
  const priv = b64url(vapid.privateKey)
  if (pub.length !== 65 || pub[0] !== 4)
    return { status: 'fail', name: 'VAPID keys', detail: 'the public key is not a P-256 public key (65 bytes, base64url)', fix }
  if (priv.length !== 32) return { status: 'fail', name: 'VAPID keys', detail: 'the private key is not a P-256 private key (32 bytes, base64url)', fix }
  try {
    const ecdh = createECDH('prime256v1')
    ecdh.setPrivateKey(priv)
    if (!ecdh.getPublicKey().equals(pub)) return { status: 'fail', name: 'VAPID keys', detail: 'the public key does not belong to the private key', fix }
  } catch {
    return { status: 'fail', name: 'VAPID keys', detail: 'the private key is not a valid P-256 key', fix }
  }
  return { status: 'ok', name: 'VAPID keys', detail: `a matching P-256 pair, subject ${vapid.subject}` }
}

/** Stripe (billing on): the secret and publishable keys of one mode, and a webhook signing secret. */
export function checkStripeShapes(stripe: Config['stripe']): CheckResult[] {
  const out: CheckResult[] = []
  const secretMode = /^(?:sk|rk)_(test|live)_[A-Za-z0-9]+$/.exec(stripe.secretKey ?? '')?.[1]
  const publicMode = /^pk_(test|live)_[A-Za-z0-9]+$/.exec(stripe.publishableKey ?? '')?.[1]
  if (!secretMode)
    out.push({
      status: 'fail',
      name: 'Stripe keys',
      detail: 'STRIPE_SECRET_KEY is not sk_test_…/sk_live_… (or a restricted rk_…)',
      fix: 'copy the secret key from Stripe → Developers → API keys',
    })
  else if (!publicMode)
    out.push({
      status: 'fail',
      name: 'Stripe keys',
      detail: 'STRIPE_PUBLISHABLE_KEY is not pk_test_…/pk_live_…',
      fix: 'copy the publishable key from Stripe → Developers → API keys',
    })
  else if (secretMode !== publicMode)
    out.push({
      status: 'fail',
      name: 'Stripe keys',
      detail: `the secret key is a ${secretMode} key, the publishable key a ${publicMode} key`,
      fix: 'use both keys of the same mode (test or live)',
    })
  else out.push({ status: 'ok', name: 'Stripe keys', detail: `${secretMode} mode, secret and publishable keys of one mode` })
  if (!/^whsec_[A-Za-z0-9+/=]{4,}$/.test(stripe.webhookSecret ?? ''))
    out.push({
      status: 'fail',
      name: 'Stripe webhook secret',
      detail: 'STRIPE_WEBHOOK_SECRET is not a signing secret (whsec_…)',
      fix: 'copy the signing secret of the webhook endpoint (Stripe → Developers → Webhooks → your endpoint, or `stripe listen`)',
    })
  else out.push({ status: 'ok', name: 'Stripe webhook secret', detail: 'whsec_… signing secret' })
  return out
}

/** A one-line summary of how this configuration runs. */
export function configSummary(config: Config): string {
  const source = config.demo
    ? 'demo forum (DEMO=1)'
    : config.reddit.clientId
      ? 'Reddit OAuth'
      : config.reddit.mode === 'atom'
        ? 'Reddit Atom feed'
        : 'Reddit public JSON (closed since May 2026)'
  const mail = config.smtpUrl ? `SMTP ${new URL(config.smtpUrl).host}` : 'dev outbox (no SMTP_URL)'
  return `${source}, ${mail}, billing ${config.billingEnabled ? 'on' : 'off'}, APP_URL ${config.appUrl}, DATA_DIR ${config.dataDir}`
}
