import { describe, expect, test } from 'bun:test'
import { existsSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { ConfigError, loadConfig, parseEnv } from '../../src/config'
import { tempDir } from '../helpers'

describe('config validation', () => {
  test('defaults follow the external contract', () => {
    const c = parseEnv({})
    expect(c.port).toBe(3000)
    expect(c.host).toBe('0.0.0.0')
    expect(c.appUrl).toBe('http://localhost:3000')
    expect(c.appName).toBe('Dibs')
    expect(c.productName).toBe('GAFS')
    expect(c.productSlug).toBe('gafs')
    expect(c.forums).toEqual({ accessories: 'GunAccessoriesForSale', deals: 'gundeals' })
    expect(c.reddit.baseUrl).toBe('https://www.reddit.com')
    expect(c.scanIntervalSeconds).toBeNull()
    expect(c.smtpUrl).toBeNull()
    expect(c.billingEnabled).toBe(false)
    expect(c.defaultPlan).toBe('product+gd')
    expect(c.demo).toBe(false)
    expect(c.dataDir.endsWith('/data')).toBe(true)
  })

  test('Reddit credentials switch the base URL to the OAuth host', () => {
    const c = parseEnv({ REDDIT_CLIENT_ID: 'id', REDDIT_CLIENT_SECRET: 'secret' })
    expect(c.reddit.baseUrl).toBe('https://oauth.reddit.com')
  })

  test('APP_URL on https turns on Secure cookies', () => {
    expect(parseEnv({ APP_URL: 'https://dibs.example.com/' }).secureCookies).toBe(true)
    expect(parseEnv({ APP_URL: 'https://dibs.example.com/' }).appUrl).toBe('https://dibs.example.com')
  })

  test('ADMIN_EMAILS is a lowercased comma list', () => {
    expect(parseEnv({ ADMIN_EMAILS: ' Ann@Example.com, bob@example.com ,' }).adminEmails).toEqual(['ann@example.com', 'bob@example.com'])
  })

  test('DEFAULT_PLAN accepts the product label', () => {
    expect(parseEnv({ DEFAULT_PLAN: 'gafs' }).defaultPlan).toBe('product')
    expect(parseEnv({ DEFAULT_PLAN: 'GAFS+GD' }).defaultPlan).toBe('product+gd')
    expect(parseEnv({ DEFAULT_PLAN: 'gd' }).defaultPlan).toBe('gd')
    expect(parseEnv({ DEFAULT_PLAN: 'none' }).defaultPlan).toBeNull()
  })

  const bad: [string, Record<string, string>, RegExp][] = [
    ['a port that is not a number', { PORT: 'abc' }, /^PORT: expected an integer from 0 to 65535, got "abc"$/],
    ['a port out of range', { PORT: '70000' }, /^PORT:/],
    ['an APP_URL without scheme', { APP_URL: 'dibs.example.com' }, /^APP_URL: expected a http or https URL/],
    ['an SMTP_URL that is not smtp', { SMTP_URL: 'http://mail' }, /^SMTP_URL: expected a smtp or smtps URL/],
    ['a subreddit with a slash', { ACCESSORIES_SUBREDDIT: 'r/guns' }, /^ACCESSORIES_SUBREDDIT:/],
    ['an admin list with a non-email', { ADMIN_EMAILS: 'root' }, /^ADMIN_EMAILS:/],
    ['half of the Reddit credentials', { REDDIT_CLIENT_ID: 'x' }, /^REDDIT_CLIENT_SECRET: expected to be set together/],
    ['half of the Google credentials', { GOOGLE_CLIENT_SECRET: 'x' }, /^GOOGLE_CLIENT_ID:/],
    ['a Stripe key of the wrong kind', { STRIPE_SECRET_KEY: 'pk_test_123' }, /^STRIPE_SECRET_KEY:/],
    ['a Stripe key without webhook secret', { STRIPE_SECRET_KEY: 'sk_test_1', STRIPE_PUBLISHABLE_KEY: 'pk_test_1' }, /^STRIPE_WEBHOOK_SECRET:/],
    ['an unknown plan', { DEFAULT_PLAN: 'platinum' }, /^DEFAULT_PLAN: expected one of gafs, gd, gafs\+gd, none/],
    ['a scan interval of zero', { SCAN_INTERVAL_SECONDS: '0' }, /^SCAN_INTERVAL_SECONDS:/],
    ['DEMO that is not a boolean', { DEMO: 'maybe' }, /^DEMO:/],
    ['an unknown log level', { LOG_LEVEL: 'loud' }, /^LOG_LEVEL:/],
  ]
  for (const [what, env, message] of bad) {
    test(`${what} stops startup with one line naming the variable`, () => {
      let error: unknown
      try {
        parseEnv(env)
      } catch (e) {
        error = e
      }
      expect(error).toBeInstanceOf(ConfigError)
      expect((error as Error).message).toMatch(message)
      expect((error as Error).message).not.toContain('\n')
    })
  }
})

describe('generated secrets', () => {
  test('unset secrets are generated once into DATA_DIR and reused on the next start', () => {
    const dir = tempDir()
    const first = loadConfig({ DATA_DIR: dir })
    const file = join(dir, 'secrets.json')
    expect(existsSync(file)).toBe(true)
    expect(statSync(file).mode & 0o777).toBe(0o600)
    expect(first.secrets.sessionSecret.length).toBeGreaterThanOrEqual(40)
    expect(first.secrets.vapid.publicKey).toMatch(/^[A-Za-z0-9_-]{80,}$/)
    const second = loadConfig({ DATA_DIR: dir })
    expect(second.secrets).toEqual(first.secrets)
    expect(JSON.parse(readFileSync(file, 'utf8')).unsubscribeSecret).toBe(first.secrets.unsubscribeSecret)
  })

  test('configured secrets win over generated ones', () => {
    const dir = tempDir()
    const c = loadConfig({ DATA_DIR: dir, SESSION_SECRET: 'from-env-session-secret-value' })
    expect(c.secrets.sessionSecret).toBe('from-env-session-secret-value')
  })
})

describe('DATABASE_URL', () => {
  const SHARED = {
    SESSION_SECRET: 'shared-session-secret-value-0123456789',
    UNSUBSCRIBE_SECRET: 'shared-unsubscribe-secret-value-0123456789',
    TOTP_ENCRYPTION_KEY: 'a'.repeat(64),
    VAPID_PUBLIC_KEY: 'BPublicKeyOfTheSharedVapidPairForEveryNodeOfTheClusterxxxxxxxxxxxxxxxxxxxxxxxxxxxxx',
    VAPID_PRIVATE_KEY: 'privatekeyofthesharedpairxxxxxxxxxxxxxxxx',
  }

  test('unset means SQLite in DATA_DIR; a PostgreSQL URL is taken as given', () => {
    expect(parseEnv({}).databaseUrl).toBeNull()
    expect(parseEnv({ DATABASE_URL: 'postgres://dibs:pw@db:5432/dibs' }).databaseUrl).toBe('postgres://dibs:pw@db:5432/dibs')
    expect(parseEnv({ DATABASE_URL: 'postgresql://db.example/dibs?sslmode=require' }).databaseUrl).toBe('postgresql://db.example/dibs?sslmode=require')
  })

  test('anything else stops startup naming the variable, without echoing its password', () => {
    for (const bad of ['mysql://u:pw@db/dibs', 'postgres://db', 'not a url', 'sqlite:data/dibs.db']) {
      expect(() => parseEnv({ DATABASE_URL: bad })).toThrow(/^DATABASE_URL: expected a PostgreSQL URL naming a database/)
    }
    expect(() => parseEnv({ DATABASE_URL: 'mysql://u:hunter2@db/dibs' })).toThrow('got "mysql://u:…@db/dibs"')
  })

  test('with it, every secret comes from the environment: a missing one is named, nothing is generated into DATA_DIR', () => {
    const dir = tempDir()
    const url = 'postgres://dibs@127.0.0.1:5432/dibs'
    for (const name of Object.keys(SHARED)) {
      const env: Record<string, string> = { DATA_DIR: dir, DATABASE_URL: url, ...SHARED }
      delete env[name]
      expect(() => loadConfig(env)).toThrow(`${name}: expected to be set`)
    }
    const { VAPID_PUBLIC_KEY: _pub, VAPID_PRIVATE_KEY: _priv, ...noVapid } = SHARED
    expect(() => loadConfig({ DATA_DIR: dir, DATABASE_URL: url, ...noVapid })).toThrow('VAPID_PUBLIC_KEY: expected to be set when DATABASE_URL is set')
    const c = loadConfig({ DATA_DIR: dir, DATABASE_URL: url, ...SHARED })
    expect(c.secrets.sessionSecret).toBe(SHARED.SESSION_SECRET)
    expect(c.secrets.vapid.privateKey).toBe(SHARED.VAPID_PRIVATE_KEY)
    expect(existsSync(join(dir, 'secrets.json'))).toBe(false)
  })
})

describe('SUPPORT_EMAIL', () => {
  test('defaults to the first ADMIN_EMAILS address, can be set, and must be an address', () => {
    expect(parseEnv({}).supportEmail).toBeNull()
    expect(parseEnv({ ADMIN_EMAILS: 'Boss@Example.com, b@example.com' }).supportEmail).toBe('boss@example.com')
    expect(parseEnv({ ADMIN_EMAILS: 'boss@example.com', SUPPORT_EMAIL: 'help@example.com' }).supportEmail).toBe('help@example.com')
    expect(() => parseEnv({ SUPPORT_EMAIL: 'nobody' })).toThrow(ConfigError)
  })
})
