// `dibs doctor` (issue 17 item 5), spawned as an operator runs it, against the faithful fakes:
// Reddit (OAuth: token + one listing request), a real SMTP server requiring AUTH, Stripe, and the
// app itself behind an https proxy. A good setup prints only ✓ and exits 0; a broken one prints
// ✗ lines, each followed by its fix, and exits 1.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { generateKeyPairSync } from 'node:crypto'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { startFakeReddit, type FakeReddit } from '../fakes/reddit'
import { startSmtp, type FakeSmtp } from '../fakes/smtp'
import { startFakeStripe, type FakeStripe } from '../fakes/stripe'
import { recentLogLines } from '../../src/lib/log'
import { spawnCli, startTestServer, tempDir } from '../helpers'

const TLS = join(import.meta.dir, '../fixtures/tls')

const cli = (args: string[], env: Record<string, string>) => spawnCli(args, { NODE_EXTRA_CA_CERTS: join(TLS, 'localhost-cert.pem'), ...env })

let reddit: FakeReddit
let smtp: FakeSmtp
let stripe: FakeStripe
let server: Awaited<ReturnType<typeof startTestServer>>
let proxy: ReturnType<typeof Bun.serve>
let good: Record<string, string>

beforeAll(async () => {
  reddit = await startFakeReddit()
  smtp = await startSmtp(0, { auth: { user: 'dibs', pass: 's3cret' } })
  stripe = await startFakeStripe()
  server = await startTestServer()
  // The https reverse proxy in front of the app (certificate for localhost, trusted via NODE_EXTRA_CA_CERTS).
  proxy = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    tls: { cert: readFileSync(join(TLS, 'localhost-cert.pem'), 'utf8'), key: readFileSync(join(TLS, 'localhost-key.pem'), 'utf8') },
    fetch: (req) => fetch(`${server.url}${new URL(req.url).pathname}`),
  })
  const keyFile = join(tempDir(), 'dkim.pem')
  writeFileSync(keyFile, generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), { mode: 0o600 })
  good = {
    DATA_DIR: server.config.dataDir,
    APP_URL: `https://localhost:${proxy.port}`,
    REDDIT_CLIENT_ID: reddit.clientId,
    REDDIT_CLIENT_SECRET: reddit.clientSecret,
    REDDIT_BASE_URL: reddit.oauthUrl,
    REDDIT_AUTH_URL: reddit.authUrl,
    ACCESSORIES_SUBREDDIT: 'ShotgunMarket', // a live forum: the default one Reddit closed is a warning
    SMTP_URL: `smtp://dibs:s3cret@127.0.0.1:${smtp.port}`,
    MAIL_FROM: 'Dibs <alerts@dibs.example.com>',
    DKIM_DOMAIN: 'dibs.example.com',
    DKIM_SELECTOR: 'dibs2026',
    DKIM_PRIVATE_KEY: keyFile,
    STRIPE_SECRET_KEY: 'sk_test_fake',
    STRIPE_PUBLISHABLE_KEY: 'pk_test_fake',
    STRIPE_WEBHOOK_SECRET: 'whsec_fake',
    STRIPE_API_BASE: stripe.url,
  }
})
afterAll(async () => {
  await proxy.stop(true)
  await server.stop()
  await Promise.all([reddit.stop(), smtp.stop(), stripe.stop()])
})

const lines = (out: string) => out.split('\n')

describe('dibs doctor', () => {
  test('a working setup: every check ✓, one Reddit listing request, no mail sent, exit 0', async () => {
    const listings = reddit.listingRequests().length
    const r = await cli(['doctor'], good)
    expect(r.err).toBe('')
    for (const name of [
      'configuration',
      'DATA_DIR',
      'database',
      'Reddit',
      'forums',
      'SMTP',
      'mail sender',
      'DKIM',
      'VAPID keys',
      'Stripe keys',
      'Stripe webhook secret',
      'Stripe API',
      'APP_URL',
      'clock',
    ])
      expect(lines(r.out)).toContainEqual(expect.stringMatching(new RegExp(`^✓ ${name}: `)))
    expect(r.out).not.toMatch(/^[✗!] /m)
    expect(r.out).toMatch(/^✓ Reddit: reachable, OAuth mode, 9\d\d requests left, window resets in \d+ s$/m)
    expect(r.out).toMatch(/^✓ database: quick_check ok, (\d+)\/\1 migrations applied$/m)
    expect(r.out).toContain('✓ SMTP: smtp://127.0.0.1:')
    expect(r.out).toContain('handshake and authentication ok (no mail sent)')
    // an HTTP Date header has whole seconds: the same clock reads 0 or 1 s apart across a second boundary
    expect(r.out).toMatch(/^✓ clock: [01] s (ahead of|behind) Reddit's clock$/m)
    expect(r.out).toMatch(/doctor: 14 ok, 0 warning\(s\), 0 failed/)
    expect(r.code).toBe(0)
    expect(reddit.listingRequests().length).toBe(listings + 1)
    expect(smtp.messages).toHaveLength(0)
  })

  test('with a key, a forum Reddit dropped from the multireddit without a word: its last post, flagged against its rhythm', async () => {
    const now = Date.now()
    const post = (sub: string, i: number, at: number) =>
      server.deps.sqlite
        .query('INSERT INTO posts (reddit_id, forum, subreddit, title, url, created_at) VALUES (?, ?, ?, ?, ?, ?)')
        .run(`q${sub.length}x${i}`, sub === 'gundeals' ? 'gd' : 'product', sub, '[WTS] x', `https://www.reddit.com/r/${sub}/comments/q${i}/`, at)
    for (let i = 0; i < 20; i++) post('ShotgunMarket', i, now - 8 * 3600_000 - i * 5 * 60_000) // one every 5 min, until 8 h ago
    for (let i = 0; i < 20; i++) post('gundeals', i, now - 60_000 - i * 20 * 60_000) // still arriving
    try {
      const r = await cli(['doctor'], good)
      expect(r.out).toMatch(
        /^! forums: r\/ShotgunMarket: last post 8 h ago \(no post for 8 h, usually one every 5 min, while the other forums get posts: banned, private or dropped from the request\?\); r\/gundeals: last post 1 min ago$/m,
      )
      expect(r.out).toContain('fix: open the subreddit on reddit.com; point the forum at a live one with ACCESSORIES_SUBREDDIT / DEALS_SUBREDDIT')
    } finally {
      server.deps.sqlite.run("DELETE FROM posts WHERE reddit_id LIKE 'q%'")
    }
  })

  test('a broken setup: wrong SMTP password, unreachable Reddit, bad webhook secret, MAIL_FROM at an IP → ✗ with a fix each, exit 1', async () => {
    const r = await cli(['doctor'], {
      ...good,
      SMTP_URL: `smtp://dibs:wrong@127.0.0.1:${smtp.port}`,
      REDDIT_BASE_URL: 'http://127.0.0.1:9',
      REDDIT_CLIENT_ID: '',
      REDDIT_CLIENT_SECRET: '',
      STRIPE_WEBHOOK_SECRET: 'we_1Nabc',
      MAIL_FROM: '',
      APP_URL: 'http://203.0.113.9',
      DKIM_DOMAIN: '',
      DKIM_SELECTOR: '',
      DKIM_PRIVATE_KEY: '',
    })
    expect(r.code).toBe(1)
    const out = lines(r.out)
    const fixAfter = (prefix: string) => {
      const i = out.findIndex((l) => l.startsWith(prefix))
      expect(i).toBeGreaterThanOrEqual(0)
      expect(out[i + 1]).toMatch(/^ {4}fix: \S/)
      return out[i + 1]!
    }
    expect(r.out).toMatch(/^✗ SMTP: smtp:\/\/127\.0\.0\.1:\d+: authentication failed/m)
    expect(fixAfter('✗ SMTP')).toContain('check the user and password in SMTP_URL')
    expect(r.out).toMatch(/^✗ Reddit: Atom feed: unreachable/m)
    expect(fixAfter('✗ Reddit')).toContain('check the network')
    expect(fixAfter('✗ Stripe webhook secret')).toContain('signing secret')
    // MAIL_FROM defaults to no-reply@<APP_URL host>: an IP here, which no receiver can authenticate.
    expect(r.out).toContain('✗ mail sender: MAIL_FROM is at an IP address (203.0.113.9)')
    expect(fixAfter('✗ mail sender')).toContain('set MAIL_FROM to an address on a domain you control')
    expect(fixAfter('✗ APP_URL')).toContain('https')
    expect(fixAfter('! DKIM')).toContain('DKIM_DOMAIN')
    expect(r.out).toMatch(/doctor: \d+ ok, \d+ warning\(s\), [5-9] failed/)
  })

  test('without a key doctor reads the Atom feed and names what Reddit answered: block page, closed JSON', async () => {
    const noKey = { ...good, REDDIT_CLIENT_ID: '', REDDIT_CLIENT_SECRET: '', REDDIT_BASE_URL: reddit.url }
    const ok = await cli(['doctor'], noKey)
    expect(ok.out).toMatch(/^✓ Reddit: reachable, Atom feed mode/m)
    expect(reddit.listingRequests().at(-1)!.path).toBe('/r/ShotgunMarket+gundeals/new/.rss')
    reddit.block()
    try {
      const blocked = await cli(['doctor'], noKey)
      expect(blocked.out).toMatch(/^✗ Reddit: Atom feed: HTTP 403 \(blocked\)\n {4}fix: this address is blocked by Reddit/m)
    } finally {
      reddit.block(false)
    }
    const json = await cli(['doctor'], { ...noKey, REDDIT_MODE: 'json' })
    expect(json.out).toMatch(/^✗ Reddit: public JSON: HTTP 403 \(closed\)\n {4}fix: Reddit closed logged-out JSON in May 2026/m)
  })

  test('a server sending real mail from an IP address warns once at startup, with the fix', async () => {
    const after = recentLogLines().lastSeq
    const ip = await startTestServer({ SMTP_URL: smtp.url, APP_URL: 'http://127.0.0.1:3000' })
    await ip.stop()
    const named = await startTestServer({ SMTP_URL: smtp.url, MAIL_FROM: 'Dibs <alerts@dibs.example.com>' })
    await named.stop()
    const warned = recentLogLines({ after, minLevel: 'warn' }).lines.filter((l) => l.text.includes('MAIL_FROM'))
    expect(warned).toHaveLength(1)
    expect(warned[0]!.text).toContain(
      'MAIL_FROM is at an IP address (127.0.0.1), which cannot publish SPF, DKIM or DMARC; receivers will treat alert emails as spam',
    )
    expect(warned[0]!.text).toContain('set MAIL_FROM to an address on a domain you control')
  })

  test('a configuration that does not load is one ✗ line with its fix, exit 1', async () => {
    const r = await cli(['doctor'], { DATA_DIR: tempDir(), DKIM_DOMAIN: 'dibs.example.com' })
    expect(r.code).toBe(1)
    expect(r.out).toContain('✗ configuration: configuration error: DKIM_SELECTOR: expected to be set together with the other DKIM_ variables')
    expect(r.out).toContain('    fix: correct that variable')
  })
})
