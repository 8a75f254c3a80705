// Security headers on every response (issue 11 item 5, OWASP Secure Headers):
//   Content-Security-Policy   self for scripts, styles, images, fonts, workers and connections
//                             (the WebSocket included); the app shell's inline theme script by
//                             hash; Stripe's origins only while billing is on; no framing, no
//                             <base>, forms post to us only, no plugins.
//   X-Content-Type-Options    nosniff
//   Referrer-Policy           strict-origin-when-cross-origin
//   Permissions-Policy        no camera, microphone, geolocation (and other powerful features)
//   Strict-Transport-Security when APP_URL is https (one year, subdomains)
// and `Cache-Control: no-store` on every /api/ response that does not set its own (item 6): the
// API answers per user, and shared caches must never keep one user's answer for another.
import { createHash } from 'node:crypto'
import type { Config } from '../config'

/** Stripe.js and embedded Checkout (docs.stripe.com/security/guide#content-security-policy). */
const STRIPE = {
  script: ['https://js.stripe.com', 'https://*.js.stripe.com'],
  frame: ['https://js.stripe.com', 'https://*.js.stripe.com', 'https://hooks.stripe.com', 'https://checkout.stripe.com'],
  connect: ['https://api.stripe.com', 'https://checkout.stripe.com', 'https://merchant-ui-api.stripe.com'],
  img: ['https://*.stripe.com'],
}

type CspConfig = Pick<Config, 'appUrl' | 'billingEnabled'> & { stripe?: Pick<Config['stripe'], 'jsUrl'> }

/**
 * A Stripe.js served from elsewhere than js.stripe.com (STRIPE_JS_URL: the tests' stand-in) is
 * allowed beside Stripe's own origins: its script, the calls it makes home and any frame it opens.
 */
function stripeJsOrigin(config: CspConfig): string | null {
  const js = config.stripe?.jsUrl
  if (!js) return null
  try {
    const origin = new URL(js).origin
    return origin === 'https://js.stripe.com' ? null : origin
  } catch {
    return null
  }
}

export type CspExtra = { scriptHashes?: string[]; styleHashes?: string[] }

/** 'sha256-…' source of an inline script or style, as CSP compares it (the exact text between the tags). */
export function cspHash(text: string): string {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`
}

/** The hashes of every inline <script> (without src) and <style> of an HTML page. */
export function inlineHashes(html: string): Required<CspExtra> {
  const scripts = [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/gi)].map((m) => m[1]!).filter((s) => s.trim())
  const styles = [...html.matchAll(/<style[^>]*>([\s\S]*?)<\/style>/gi)].map((m) => m[1]!)
  return { scriptHashes: scripts.map(cspHash), styleHashes: styles.map(cspHash) }
}

export function contentSecurityPolicy(config: CspConfig, extra: CspExtra = {}): string {
  const app = new URL(config.appUrl)
  const socket = `${app.protocol === 'https:' ? 'wss:' : 'ws:'}//${app.host}`
  const stripe = config.billingEnabled
  const standIn = (stripe && stripeJsOrigin(config)) || undefined
  const list = (...parts: (string | string[] | false | undefined)[]) => parts.flat().filter(Boolean).join(' ')
  return [
    `default-src 'self'`,
    `script-src ${list("'self'", extra.scriptHashes, stripe && STRIPE.script, standIn)}`,
    `style-src ${list("'self'", extra.styleHashes)}`,
    `img-src ${list("'self'", 'data:', 'blob:', stripe && STRIPE.img)}`,
    `font-src 'self' data:`,
    `connect-src ${list("'self'", socket, stripe && STRIPE.connect, standIn)}`,
    `frame-src ${stripe ? list(STRIPE.frame, standIn) : "'none'"}`,
    `worker-src 'self'`,
    `manifest-src 'self'`,
    `object-src 'none'`,
    `base-uri 'self'`,
    `form-action 'self'`,
    `frame-ancestors 'none'`,
  ].join('; ')
}

const PERMISSIONS = 'camera=(), microphone=(), geolocation=(), payment=(self "https://js.stripe.com"), usb=()'

/** The headers every response carries (the CSP given by the caller: it depends on the page). */
export function securityHeaders(config: Pick<Config, 'appUrl' | 'billingEnabled'>, csp: string): Record<string, string> {
  const headers: Record<string, string> = {
    'content-security-policy': csp,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'strict-origin-when-cross-origin',
    'permissions-policy': PERMISSIONS,
    'x-frame-options': 'DENY',
  }
  if (config.appUrl.startsWith('https:')) headers['strict-transport-security'] = 'max-age=31536000; includeSubDomains'
  return headers
}

/** Sets the security headers (and no-store on /api/) into a header record without overriding the route's own. */
export function applySecurityHeaders(target: Record<string, unknown>, path: string, headers: Record<string, string>) {
  for (const [k, v] of Object.entries(headers)) if (target[k] === undefined) target[k] = v
  if (path.startsWith('/api/') && target['cache-control'] === undefined) target['cache-control'] = 'no-store'
}

/**
 * The header sets of the app, built once and again only when what they depend on changes (APP_URL,
 * billing, the shell's inline-script hashes, known only after start): not on every request.
 * `special` gives other pages their own CSP extras (the API reference's stylesheet).
 */
export function headerSets(config: CspConfig, scriptHashes: () => string[] | undefined, special: Record<string, CspExtra> = {}) {
  let built: {
    appUrl: string
    billing: boolean
    hashes: string[] | undefined
    page: Record<string, string>
    byPath: Record<string, Record<string, string>>
  } | null = null
  return (path: string): Record<string, string> => {
    const hashes = scriptHashes()
    if (built === null || built.appUrl !== config.appUrl || built.billing !== config.billingEnabled || built.hashes !== hashes) {
      const byPath: Record<string, Record<string, string>> = {}
      for (const [p, extra] of Object.entries(special)) byPath[p] = securityHeaders(config, contentSecurityPolicy(config, extra))
      built = {
        appUrl: config.appUrl,
        billing: config.billingEnabled,
        hashes,
        page: securityHeaders(config, contentSecurityPolicy(config, { scriptHashes: hashes })),
        byPath,
      }
    }
    return built.byPath[path] ?? built.page
  }
}
