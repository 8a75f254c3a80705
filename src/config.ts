// The only reader of process.env. Every variable of the external contract is parsed and
// validated here once; a bad value stops startup with one line naming the variable.
import { existsSync, readFileSync, writeFileSync, chmodSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { createPrivateKey, randomBytes } from 'node:crypto'
import webpush from 'web-push'
import { parsePlanId, type PlanId } from './access/plans'
import { pairByName, pairLabels, type PairChoice, presetForumName as forumName } from './sources/presets'
import { parseTrustedProxies, type TrustedProxies } from './lib/ip'
import { prepareDataDir } from './lib/data-dir'
import { withoutPassword } from './lib/urls'

/** Stripe.js of the release train @stripe/stripe-js 10 pins (its API version 2026-10-28.endive). */
export const STRIPE_JS_DEFAULT = 'https://js.stripe.com/endive/stripe.js'

export type Config = {
  port: number
  host: string
  dataDir: string
  dbPath: string
  /** DATABASE_URL: postgres://… runs on PostgreSQL (several nodes may share it); null = SQLite in DATA_DIR (dbPath) */
  databaseUrl: string | null
  appUrl: string
  secureCookies: boolean
  appName: string
  productName: string
  /** URL segment of the accessories forum's dashboard: /dashboard/{productSlug} */
  productSlug: string
  forums: { accessories: string; deals: string }
  /** the deals forum's name in texts: 'Gundeals' (the spec's), or the FORUM_PRESET pair's (an admin's switch changes it at run time) */
  dealsLabel: string
  /** FORUM_PRESET: the ready pair of forums picked at first start (src/sources/presets.json), or null for the spec's pair */
  forumPreset: PairChoice | null
  reddit: {
    baseUrl: string
    authUrl: string
    clientId: string | null
    clientSecret: string | null
    /** REDDIT_USERNAME + REDDIT_PASSWORD: the password grant for a personal "script" app */
    username: string | null
    password: string | null
    /** REDDIT_MODE without a key: 'atom' (default, the www Atom feed) or 'json' (logged-out JSON, closed since May 2026) */
    mode: 'atom' | 'json'
    userAgent: string
  }
  /** null = adaptive within Reddit's rate limit */
  scanIntervalSeconds: number | null
  /** RECHECK_BUDGET_SHARE: share of the Reddit request cap the re-check of recent posts may use (0 = off, default 0.2) */
  recheckBudgetShare: number
  smtpUrl: string | null
  mailFrom: string
  /** DKIM_DOMAIN + DKIM_SELECTOR + DKIM_PRIVATE_KEY (all three or none): nodemailer signs every message */
  dkim: Dkim | null
  /** BACKUP_INTERVAL_HOURS: hours between automatic backups into DATA_DIR/backups; 0 = off */
  backupIntervalHours: number
  /** BACKUP_KEEP: how many automatic backups stay (the newest) */
  backupKeep: number
  adminEmails: string[]
  stripe: {
    secretKey: string | null
    publishableKey: string | null
    webhookSecret: string | null
    apiBase: string | null
    /** where the browser loads Stripe.js from (STRIPE_JS_URL; tests serve a stand-in) */
    jsUrl: string
  }
  billingEnabled: boolean
  /** plan granted on email confirmation while billing is off; null = none */
  defaultPlan: PlanId | null
  google: {
    clientId: string | null
    clientSecret: string | null
    authUrl: string
    tokenUrl: string
    userInfoUrl: string
  }
  digestIntervalMinutes: number
  demo: boolean
  /** NODE_ENV=development: Bun's dev server (HMR, unminified bundle) — `bun run dev` sets it */
  development: boolean
  logLevel: 'debug' | 'info' | 'warn' | 'error' | 'silent'
  /** LOG_FORMAT: 'text' (default, one readable line) or 'json' (one object per line, for log shippers) */
  logFormat: 'text' | 'json'
  /** METRICS_TOKEN: bearer token for GET /metrics; null = admin sessions only */
  metricsToken: string | null
  maxBodyBytes: number
  /** TRUST_PROXY: proxies whose X-Forwarded-For names the client; null = ignore the header */
  trustProxy: TrustedProxies
  /** REQUIRE_ADMIN_2FA: admins enrol in two-factor sign-in before the admin pages open */
  requireAdmin2fa: boolean
  /** SUPPORT_EMAIL (default: the first ADMIN_EMAILS address): the recipient of 'Contact Support' */
  supportEmail: string | null
  /** CHANNELS_ALLOW_PRIVATE: external channel URLs (webhook, ntfy, Discord, Gotify, Matrix, …) may be http and reach loopback/private addresses (tests, LAN-only setups) */
  channelsAllowPrivate: boolean
  /** the hosted notification services (src/outbox/channels/registry.ts): the admin's tokens and the base URLs (stand-ins in tests) */
  notifyProviders: {
    /** TELEGRAM_BOT_TOKEN: the installation's bot (from @BotFather); without it the Telegram channel is not offered */
    telegramBotToken: string | null
    /** TELEGRAM_API_URL: the Bot API host */
    telegramApiUrl: string
    /** PUSHOVER_APP_TOKEN: the installation's Pushover application token; without it Pushover is not offered */
    pushoverAppToken: string | null
    /** PUSHOVER_API_URL: the Pushover API host */
    pushoverApiUrl: string
    /** APPRISE_URL: an Apprise API server (its stateless /notify); without it Apprise is not offered */
    appriseUrl: string | null
  }
  /** ALLOW_PRIVATE_SOURCES: feed sources may reach loopback/private/link-local addresses (tests, LAN-only forums) */
  allowPrivateSources: boolean
  /**
   * DIBS_TEST_HOLD_DISPATCH_MS, TEST-ONLY: the dispatcher waits this long (logging 'test hook: dispatch
   * held') between storing live matches and queueing their alerts, so a crash test can kill the process
   * in that window (tests/api/alerts-owed.test.ts). 0, the default, in every real setup.
   */
  testHoldDispatchMs: number
  secrets: Secrets
  /** set when other users can open DATA_DIR; src/main.ts logs it once the log level is known */
  dataDirWarning: string | null
}

export type Dkim = { domain: string; selector: string; privateKey: string }

export type Secrets = {
  sessionSecret: string
  unsubscribeSecret: string
  /** TOTP_ENCRYPTION_KEY: the AES-256 key that seals two-factor secrets in the database (src/auth/totp-secret.ts) */
  totpKey: Buffer
  vapid: { publicKey: string; privateKey: string; subject: string }
}

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    expected: string,
    value?: string,
  ) {
    super(`${variable}: expected ${expected}${value === undefined ? '' : `, got "${value}"`}`)
    this.name = 'ConfigError'
  }
}

type Env = Record<string, string | undefined>

function str(env: Env, name: string): string | null {
  const v = env[name]?.trim()
  return v ? v : null
}

function int(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = str(env, name)
  if (raw === null) return fallback
  const n = Number(raw)
  if (!Number.isInteger(n) || n < min || n > max) throw new ConfigError(name, `an integer from ${min} to ${max}`, raw)
  return n
}

/** A share 0–max as a decimal ("0.2") or a percentage ("20%"). */
function share(env: Env, name: string, fallback: number, max: number): number {
  const raw = str(env, name)
  if (raw === null) return fallback
  const n = raw.endsWith('%') ? Number(raw.slice(0, -1)) / 100 : Number(raw)
  if (!Number.isFinite(n) || n < 0 || n > max) throw new ConfigError(name, `a share from 0 to ${max} (e.g. 0.2 or 20%)`, raw)
  return n
}

function url(env: Env, name: string, fallback: string, protocols = ['http:', 'https:']): string {
  const raw = str(env, name) ?? fallback
  try {
    const u = new URL(raw)
    if (!protocols.includes(u.protocol)) throw new Error()
    return raw.replace(/\/+$/, '')
  } catch {
    throw new ConfigError(name, `a ${protocols.map((p) => p.replace(':', '')).join(' or ')} URL`, raw)
  }
}

function bool(env: Env, name: string): boolean {
  const raw = str(env, name)
  if (raw === null) return false
  if (['1', 'true', 'yes', 'on'].includes(raw.toLowerCase())) return true
  if (['0', 'false', 'no', 'off'].includes(raw.toLowerCase())) return false
  throw new ConfigError(name, '1 or 0 (true/false)', raw)
}

const SUBREDDIT = /^[A-Za-z0-9_]{2,21}$/
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

const DOMAIN = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i
const SELECTOR = /^[a-z0-9](?:[a-z0-9._-]{0,62})$/i

/**
 * DKIM: all three variables or none. DKIM_PRIVATE_KEY is the PEM itself (real newlines or \n
 * escapes, as an env file often has to write them) or the path of a file holding it. The key must
 * be RSA: nodemailer signs rsa-sha256, the algorithm every receiver verifies.
 */
function parseDkim(env: Env): Dkim | null {
  const names = ['DKIM_DOMAIN', 'DKIM_SELECTOR', 'DKIM_PRIVATE_KEY'] as const
  const [domain, selector, keyRaw] = names.map((n) => str(env, n))
  const set = [domain, selector, keyRaw].filter((v) => v !== null).length
  if (set === 0) return null
  if (set < 3) throw new ConfigError(names[[domain, selector, keyRaw].findIndex((v) => v === null)]!, 'to be set together with the other DKIM_ variables')
  if (!DOMAIN.test(domain!)) throw new ConfigError('DKIM_DOMAIN', 'a domain name (example.com)', domain!)
  if (!SELECTOR.test(selector!)) throw new ConfigError('DKIM_SELECTOR', 'a DNS label (letters, digits, -, _)', selector!)
  let pem = keyRaw!.replace(/\\n/g, '\n')
  if (!pem.startsWith('-----BEGIN')) {
    try {
      pem = readFileSync(resolve(pem), 'utf8')
    } catch {
      throw new ConfigError('DKIM_PRIVATE_KEY', 'a PEM private key or the path of a readable file holding one', keyRaw!)
    }
  }
  try {
    const key = createPrivateKey(pem)
    if (key.asymmetricKeyType !== 'rsa') throw new Error()
  } catch {
    throw new ConfigError('DKIM_PRIVATE_KEY', 'an RSA private key in PEM form (openssl genrsa 2048)')
  }
  return { domain: domain!.toLowerCase(), selector: selector!, privateKey: pem }
}

/** DEFAULT_PLAN: 'none', or a plan as parsePlanId reads it ('gafs', 'gd', 'gafs+gd', 'bundle'…); undefined when unreadable. */
function parsePlan(raw: string, productName: string): PlanId | null | undefined {
  if (raw.trim().toLowerCase() === 'none') return null
  return parsePlanId(raw, productName) ?? undefined
}

/** Parses the environment (pure); secrets are loaded separately by loadSecrets. */
export function parseEnv(env: Env): Omit<Config, 'secrets' | 'dataDirWarning'> {
  const port = int(env, 'PORT', 3000, 0, 65535)
  const host = str(env, 'HOST') ?? '0.0.0.0'
  const dataDir = resolve(str(env, 'DATA_DIR') ?? './data')
  const databaseUrl = postgresUrl(env)
  const appUrl = url(env, 'APP_URL', `http://localhost:${port}`)
  const appName = str(env, 'APP_NAME') ?? 'Dibs'
  const presetName = str(env, 'FORUM_PRESET')
  const forumPreset = presetName === null ? null : pairByName(presetName.toLowerCase())
  if (presetName !== null && forumPreset === null) throw new ConfigError('FORUM_PRESET', 'a preset pair (dibs sources presets lists them)', presetName)
  const productName = str(env, 'PRODUCT_NAME') ?? forumPreset?.accessories.short ?? 'GAFS'
  if (!/^[A-Za-z0-9]{2,16}$/.test(productName)) throw new ConfigError('PRODUCT_NAME', '2-16 letters or digits', productName)

  const forums = {
    accessories: str(env, 'ACCESSORIES_SUBREDDIT') ?? (forumPreset ? forumName(forumPreset.accessories) : 'GunAccessoriesForSale'),
    deals: str(env, 'DEALS_SUBREDDIT') ?? (forumPreset ? forumName(forumPreset.deals) : 'gundeals'),
  }
  if (!SUBREDDIT.test(forums.accessories)) throw new ConfigError('ACCESSORIES_SUBREDDIT', 'a subreddit name (letters, digits, _)', forums.accessories)
  if (!SUBREDDIT.test(forums.deals)) throw new ConfigError('DEALS_SUBREDDIT', 'a subreddit name (letters, digits, _)', forums.deals)

  const clientId = str(env, 'REDDIT_CLIENT_ID')
  const clientSecret = str(env, 'REDDIT_CLIENT_SECRET')
  if ((clientId === null) !== (clientSecret === null))
    throw new ConfigError(clientId ? 'REDDIT_CLIENT_SECRET' : 'REDDIT_CLIENT_ID', 'to be set together with its pair')
  const username = str(env, 'REDDIT_USERNAME')
  const password = str(env, 'REDDIT_PASSWORD')
  if ((username === null) !== (password === null)) throw new ConfigError(username ? 'REDDIT_PASSWORD' : 'REDDIT_USERNAME', 'to be set together with its pair')
  if (username !== null && clientId === null)
    throw new ConfigError('REDDIT_USERNAME', 'REDDIT_CLIENT_ID and REDDIT_CLIENT_SECRET as well (the password grant needs the app key)')
  const modeRaw = (str(env, 'REDDIT_MODE') ?? 'atom').toLowerCase()
  if (modeRaw !== 'atom' && modeRaw !== 'json') throw new ConfigError('REDDIT_MODE', "'atom' or 'json'", modeRaw)
  const reddit = {
    username,
    password,
    mode: modeRaw as 'atom' | 'json',
    baseUrl: url(env, 'REDDIT_BASE_URL', clientId ? 'https://oauth.reddit.com' : 'https://www.reddit.com'),
    authUrl: url(env, 'REDDIT_AUTH_URL', 'https://www.reddit.com/api/v1/access_token'),
    clientId,
    clientSecret,
    userAgent: str(env, 'REDDIT_USER_AGENT') ?? `linux:dibs:0.1.0 (self-hosted alert service; +${appUrl})`,
  }

  const scanRaw = str(env, 'SCAN_INTERVAL_SECONDS')
  const scanIntervalSeconds = scanRaw === null || scanRaw === 'auto' ? null : int(env, 'SCAN_INTERVAL_SECONDS', 0, 1, 3600)

  const smtpUrl = str(env, 'SMTP_URL')
  if (smtpUrl !== null) url(env, 'SMTP_URL', smtpUrl, ['smtp:', 'smtps:'])
  const mailFrom = str(env, 'MAIL_FROM') ?? `${appName} <no-reply@${new URL(appUrl).hostname}>`

  const dkim = parseDkim(env)

  const adminEmails = (str(env, 'ADMIN_EMAILS') ?? '')
    .split(',')
    .map((e) => e.trim().toLowerCase())
    .filter(Boolean)
  for (const e of adminEmails) if (!EMAIL.test(e)) throw new ConfigError('ADMIN_EMAILS', 'a comma-separated list of email addresses', e)

  const stripe = {
    secretKey: str(env, 'STRIPE_SECRET_KEY'),
    publishableKey: str(env, 'STRIPE_PUBLISHABLE_KEY'),
    webhookSecret: str(env, 'STRIPE_WEBHOOK_SECRET'),
    apiBase: str(env, 'STRIPE_API_BASE') === null ? null : url(env, 'STRIPE_API_BASE', ''),
    jsUrl: str(env, 'STRIPE_JS_URL') === null ? STRIPE_JS_DEFAULT : url(env, 'STRIPE_JS_URL', ''),
  }
  if (stripe.secretKey && !/^(sk|rk)_(test|live)_/.test(stripe.secretKey))
    throw new ConfigError('STRIPE_SECRET_KEY', 'a Stripe secret key (sk_test_… or sk_live_…)')
  if (stripe.secretKey && !stripe.publishableKey) throw new ConfigError('STRIPE_PUBLISHABLE_KEY', 'to be set when STRIPE_SECRET_KEY is set')
  if (stripe.secretKey && !stripe.webhookSecret) throw new ConfigError('STRIPE_WEBHOOK_SECRET', 'to be set when STRIPE_SECRET_KEY is set')
  const billingEnabled = stripe.secretKey !== null

  const planRaw = str(env, 'DEFAULT_PLAN') ?? 'product+gd'
  const defaultPlan = parsePlan(planRaw, productName)
  if (defaultPlan === undefined)
    throw new ConfigError('DEFAULT_PLAN', `one of ${productName.toLowerCase()}, gd, ${productName.toLowerCase()}+gd, none`, planRaw)

  const google = {
    clientId: str(env, 'GOOGLE_CLIENT_ID'),
    clientSecret: str(env, 'GOOGLE_CLIENT_SECRET'),
    authUrl: url(env, 'GOOGLE_AUTH_URL', 'https://accounts.google.com/o/oauth2/v2/auth'),
    tokenUrl: url(env, 'GOOGLE_TOKEN_URL', 'https://oauth2.googleapis.com/token'),
    userInfoUrl: url(env, 'GOOGLE_USERINFO_URL', 'https://openidconnect.googleapis.com/v1/userinfo'),
  }
  if ((google.clientId === null) !== (google.clientSecret === null))
    throw new ConfigError(google.clientId ? 'GOOGLE_CLIENT_SECRET' : 'GOOGLE_CLIENT_ID', 'to be set together with its pair')

  const vapidPublic = str(env, 'VAPID_PUBLIC_KEY')
  const vapidPrivate = str(env, 'VAPID_PRIVATE_KEY')
  if ((vapidPublic === null) !== (vapidPrivate === null))
    throw new ConfigError(vapidPublic ? 'VAPID_PRIVATE_KEY' : 'VAPID_PUBLIC_KEY', 'to be set together with its pair')

  const logLevel = (str(env, 'LOG_LEVEL') ?? 'info') as Config['logLevel']
  if (!['debug', 'info', 'warn', 'error', 'silent'].includes(logLevel)) throw new ConfigError('LOG_LEVEL', 'one of debug, info, warn, error, silent', logLevel)

  const logFormat = (str(env, 'LOG_FORMAT') ?? 'text') as Config['logFormat']
  if (logFormat !== 'text' && logFormat !== 'json') throw new ConfigError('LOG_FORMAT', 'text or json', logFormat)
  const metricsToken = str(env, 'METRICS_TOKEN')
  if (metricsToken !== null && metricsToken.length < 16) throw new ConfigError('METRICS_TOKEN', 'at least 16 characters (e.g. openssl rand -hex 32)')

  const supportEmail = str(env, 'SUPPORT_EMAIL') ?? adminEmails[0] ?? null
  if (supportEmail !== null && !EMAIL.test(supportEmail)) throw new ConfigError('SUPPORT_EMAIL', 'an email address', supportEmail)

  let trustProxy: TrustedProxies
  try {
    trustProxy = parseTrustedProxies(str(env, 'TRUST_PROXY'))
  } catch (err) {
    throw new ConfigError('TRUST_PROXY', "'loopback' or comma-separated proxy addresses/CIDRs (10.0.0.0/8, ::1)", (err as Error).message)
  }

  return {
    port,
    host,
    dataDir,
    dbPath: join(dataDir, 'dibs.db'),
    databaseUrl,
    appUrl,
    secureCookies: appUrl.startsWith('https:'),
    appName,
    productName,
    productSlug: productName.toLowerCase(),
    forums,
    forumPreset,
    dealsLabel: forumPreset ? pairLabels(forumPreset).dealsLabel : 'Gundeals',
    reddit,
    scanIntervalSeconds,
    recheckBudgetShare: share(env, 'RECHECK_BUDGET_SHARE', 0.2, 0.5),
    smtpUrl,
    mailFrom,
    dkim,
    backupIntervalHours: int(env, 'BACKUP_INTERVAL_HOURS', 24, 0, 24 * 365),
    backupKeep: int(env, 'BACKUP_KEEP', 7, 1, 1000),
    adminEmails,
    stripe,
    billingEnabled,
    defaultPlan,
    google,
    digestIntervalMinutes: int(env, 'DIGEST_INTERVAL_MINUTES', 15, 1, 1440),
    demo: bool(env, 'DEMO'),
    development: str(env, 'NODE_ENV') === 'development',
    logLevel,
    logFormat,
    metricsToken,
    maxBodyBytes: int(env, 'MAX_BODY_BYTES', 64 * 1024, 1024, 10 * 1024 * 1024),
    trustProxy,
    requireAdmin2fa: bool(env, 'REQUIRE_ADMIN_2FA'),
    supportEmail,
    channelsAllowPrivate: bool(env, 'CHANNELS_ALLOW_PRIVATE'),
    notifyProviders: {
      telegramBotToken: str(env, 'TELEGRAM_BOT_TOKEN'),
      telegramApiUrl: url(env, 'TELEGRAM_API_URL', 'https://api.telegram.org'),
      pushoverAppToken: str(env, 'PUSHOVER_APP_TOKEN'),
      pushoverApiUrl: url(env, 'PUSHOVER_API_URL', 'https://api.pushover.net'),
      appriseUrl: str(env, 'APPRISE_URL') === null ? null : url(env, 'APPRISE_URL', ''),
    },
    allowPrivateSources: bool(env, 'ALLOW_PRIVATE_SOURCES'),
    testHoldDispatchMs: int(env, 'DIBS_TEST_HOLD_DISPATCH_MS', 0, 0, 10 * 60_000),
  }
}

/** DATABASE_URL: a postgres:// or postgresql:// URL naming a database, or null. */
function postgresUrl(env: Env): string | null {
  const text = str(env, 'DATABASE_URL')
  if (text === null) return null
  let parsed: URL | null = null
  try {
    parsed = new URL(text)
  } catch {
    parsed = null
  }
  const shown = withoutPassword(text)
  if (parsed === null || !/^postgres(ql)?:$/.test(parsed.protocol) || parsed.hostname === '' || parsed.pathname.length < 2)
    throw new ConfigError(
      'DATABASE_URL',
      'a PostgreSQL URL naming a database (postgres://dibs:password@db.example:5432/dibs), or unset for SQLite in DATA_DIR',
      shown,
    )
  return text
}

/** The secrets every node must share: with DATABASE_URL they come from the environment, never from one machine's DATA_DIR. */
export const SHARED_SECRETS = ['SESSION_SECRET', 'UNSUBSCRIBE_SECRET', 'TOTP_ENCRYPTION_KEY', 'VAPID_PUBLIC_KEY', 'VAPID_PRIVATE_KEY'] as const

/**
 * Unset secrets are generated once into DATA_DIR/secrets.json (mode 600) and reused on the next start.
 * With DATABASE_URL several nodes share one database, so every secret must be set in the environment
 * (the same on each node): a missing one stops startup, naming it.
 */
export function loadSecrets(env: Env, dataDir: string, appUrl: string, opts: { shared?: boolean } = {}): Secrets {
  if (opts.shared) {
    const missing = SHARED_SECRETS.find((name) => str(env, name) === null)
    if (missing)
      throw new ConfigError(
        missing,
        'to be set when DATABASE_URL is set: every node must use the same one (a node that ran on SQLite before has it in DATA_DIR/secrets.json)',
      )
  }
  const file = join(dataDir, 'secrets.json')
  let stored: Partial<{ sessionSecret: string; unsubscribeSecret: string; totpEncryptionKey: string; vapidPublicKey: string; vapidPrivateKey: string }> = {}
  if (existsSync(file)) {
    try {
      stored = JSON.parse(readFileSync(file, 'utf8'))
    } catch {
      throw new ConfigError('DATA_DIR', `a readable ${file} (it is not valid JSON; fix or delete it)`)
    }
  }
  let changed = false
  const take = <K extends keyof typeof stored>(key: K, make: () => string): string => {
    if (!stored[key]) {
      stored[key] = make()
      changed = true
    }
    return stored[key]!
  }
  const sessionSecret = str(env, 'SESSION_SECRET') ?? take('sessionSecret', () => randomBytes(32).toString('base64url'))
  const unsubscribeSecret = str(env, 'UNSUBSCRIBE_SECRET') ?? take('unsubscribeSecret', () => randomBytes(32).toString('base64url'))
  const totpKeyText = str(env, 'TOTP_ENCRYPTION_KEY')
  const totpKey = aesKey(totpKeyText ?? take('totpEncryptionKey', () => randomBytes(32).toString('base64url')))
  if (totpKey === null) {
    if (totpKeyText !== null) throw new ConfigError('TOTP_ENCRYPTION_KEY', '32 bytes as 64 hex digits or base64 (openssl rand -base64 32)')
    throw new ConfigError('DATA_DIR', `a valid totpEncryptionKey in ${file} (32 bytes in base64url)`)
  }
  let publicKey = str(env, 'VAPID_PUBLIC_KEY')
  let privateKey = str(env, 'VAPID_PRIVATE_KEY')
  if (publicKey === null || privateKey === null) {
    if (!stored.vapidPublicKey || !stored.vapidPrivateKey) {
      const keys = webpush.generateVAPIDKeys()
      stored.vapidPublicKey = keys.publicKey
      stored.vapidPrivateKey = keys.privateKey
      changed = true
    }
    publicKey = stored.vapidPublicKey
    privateKey = stored.vapidPrivateKey
  }
  if (changed) {
    writeFileSync(file, JSON.stringify(stored, null, 2) + '\n', { mode: 0o600 })
    chmodSync(file, 0o600)
  }
  const subject = str(env, 'VAPID_SUBJECT') ?? `mailto:admin@${new URL(appUrl).hostname}`
  if (!/^(mailto:|https:)/.test(subject)) throw new ConfigError('VAPID_SUBJECT', 'a mailto: or https: URL', subject)
  return { sessionSecret, unsubscribeSecret, totpKey, vapid: { publicKey: publicKey!, privateKey: privateKey!, subject } }
}

/** A 256-bit key written as 64 hex digits or base64/base64url, or null. */
function aesKey(text: string): Buffer | null {
  const key = /^[0-9a-fA-F]{64}$/.test(text) ? Buffer.from(text, 'hex') : /^[A-Za-z0-9+/_-]{43}=?$/.test(text) ? Buffer.from(text, 'base64url') : null
  return key !== null && key.length === 32 ? key : null
}

/** The files of DATA_DIR that must stay readable and writable by the service user. */
const DATA_FILES = ['dibs.db', 'dibs.db-wal', 'dibs.db-shm', 'secrets.json']

/** Throws ConfigError for a bad variable and DataDirError (src/lib/data-dir.ts) for an unusable DATA_DIR. */
export function loadConfig(env: Env = process.env): Config {
  const base = parseEnv(env)
  const { warning } = prepareDataDir(base.dataDir, DATA_FILES, { tightenUnused: str(env, 'DATA_DIR') === null })
  return { ...base, secrets: loadSecrets(env, base.dataDir, base.appUrl, { shared: base.databaseUrl !== null }), dataDirWarning: warning }
}
