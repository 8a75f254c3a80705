// `dibs doctor`: diagnoses a setup in one run, each check with a one-line fix. It reads, it does not
// change: no migration, no mail sent, one Reddit listing request (the token request too in OAuth
// mode), one Stripe read. The pure checks are in doctor-shapes.ts, the printing in doctor-report.ts.
import { readCapped, refusal } from '../forums/reddit-client'
import { Database } from 'bun:sqlite'
import { existsSync, rmSync, statfsSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import nodemailer from 'nodemailer'
import type { Config } from '../config'
import { openDb, type OpenedDb } from '../db/client'
import { appliedMigrationTagsOf, quickCheckLines } from '../db/inspect'
import type { AsyncDb } from '../db/async-db'
import { openPg, type OpenedPg } from '../db/pg-client'
import { migrations as pgMigrations } from '../db/migrations-pg'
import { rawRows } from '../db/raw'
import { withoutPassword } from '../lib/urls'
import { sql } from 'drizzle-orm'
import { appliedMigrationTags, hasMigrationsTable } from '../db/migrate'
import { migrations } from '../db/migrations'
import { MAIL_FROM_FIX, mailDomain, mailFromProblem } from '../lib/mail-domain'
import { serverOnDataDir } from '../realtime/relay'
import { activityLine, forumActivity } from '../scanner/forum-activity'
import { checkStripeShapes, checkVapid, configSummary } from './doctor-shapes'
import { formatBytes, type CheckResult } from './doctor-report'

const TIMEOUT_MS = 8000
/** Below this much free space DATA_DIR fails the check; below WARN_FREE it warns. */
const MIN_FREE = 100 * 1024 * 1024
const WARN_FREE = 1024 * 1024 * 1024
/** Clock skew: TOTP codes (30 s steps) and Stripe's webhook tolerance (300 s) suffer well before a minute. */
const SKEW_WARN_S = 10
const SKEW_FAIL_S = 60

/** A Date header seen during the run, with the local times the request left and the answer arrived. */
export type Seen = { date: number; sentAt: number; receivedAt: number; from: string }

export async function runDoctor(config: Config): Promise<CheckResult[]> {
  const dates: Seen[] = []
  const noteDate = (res: Response, from: string, sentAt: number) => {
    const d = Date.parse(res.headers.get('date') ?? '')
    if (!Number.isNaN(d)) dates.push({ date: d, sentAt, receivedAt: Date.now(), from })
  }
  const results: CheckResult[] = [{ status: 'ok', name: 'configuration', detail: configSummary(config) }]
  if (config.databaseUrl === null) {
    results.push(checkDataDir(config), checkDatabase(config))
    results.push(await checkReddit(config, noteDate))
    if (!config.demo && existsSync(config.dbPath)) results.push(await checkForums(config))
  } else {
    const pg = await checkPostgres(config.databaseUrl)
    results.push(checkDataDir(config), pg.result)
    results.push(await checkReddit(config, noteDate))
    if (!config.demo && pg.db) results.push(await checkForums(config, pg.db))
    await pg.close()
  }
  results.push(await checkSmtp(config), checkMailFrom(config), checkDkim(config))
  results.push(checkVapid(config.secrets.vapid))
  if (config.billingEnabled) results.push(...checkStripeShapes(config.stripe), await checkStripeKey(config, noteDate))
  results.push(await checkAppUrl(config, noteDate))
  results.push(checkClock(dates))
  return results
}

function checkDataDir(config: Config): CheckResult {
  const name = 'DATA_DIR'
  const probe = join(config.dataDir, '.doctor-probe')
  try {
    writeFileSync(probe, 'doctor\n', { mode: 0o600 })
    rmSync(probe, { force: true })
  } catch (err) {
    return {
      status: 'fail',
      name,
      detail: `${config.dataDir} is not writable (${String(err)})`,
      fix: `give uid ${process.getuid?.()} write access to ${config.dataDir}`,
    }
  }
  const fs = statfsSync(config.dataDir)
  const free = fs.bavail * fs.bsize
  const detail = `${config.dataDir} writable, ${formatBytes(free)} free of ${formatBytes(fs.blocks * fs.bsize)}`
  if (free < MIN_FREE)
    return { status: 'fail', name, detail, fix: 'free space on that file system (old backups in DATA_DIR/backups, `dibs archive-posts`) or move DATA_DIR' }
  if (free < WARN_FREE) return { status: 'warn', name, detail, fix: 'less than 1 GiB left: plan more space before the database and its backups fill it' }
  return { status: 'ok', name, detail }
}

function checkDatabase(config: Config): CheckResult {
  const name = 'database'
  if (!existsSync(config.dbPath))
    return { status: 'warn', name, detail: `no database at ${config.dbPath} yet`, fix: 'none needed: `dibs serve` or `dibs migrate` creates it' }
  let db: Database | null = null
  try {
    db = new Database(config.dbPath, { readonly: true })
    db.run('PRAGMA busy_timeout = 5000')
    const check = quickCheckLines(db)
    const applied = new Set(hasMigrationsTable(db) ? appliedMigrationTags(db) : [])
    const known = migrations.filter((m) => applied.has(m.tag)).length
    const unknown = [...applied].filter((t) => !migrations.some((m) => m.tag === t))
    const level = `${known}/${migrations.length} migrations applied`
    if (check.join() !== 'ok')
      return {
        status: 'fail',
        name,
        detail: `quick_check: ${check.slice(0, 3).join('; ')}`,
        fix: 'stop the server and restore the newest backup: `dibs restore DATA_DIR/backups/<newest>.db`',
      }
    if (unknown.length)
      return {
        status: 'fail',
        name,
        detail: `${level}; ${unknown.length} applied by a newer version (${unknown[0]})`,
        fix: 'run the version of Dibs that wrote this database, or restore a backup made by this one',
      }
    if (known < migrations.length)
      return { status: 'warn', name, detail: `quick_check ok, ${level}`, fix: 'run `dibs migrate` (the server also migrates at startup)' }
    return { status: 'ok', name, detail: `quick_check ok, ${level}` }
  } catch (err) {
    return {
      status: 'fail',
      name,
      detail: `cannot read ${config.dbPath}: ${String(err instanceof Error ? err.message : err)}`,
      fix: 'check the file (owner, mode 600) or restore a backup with `dibs restore`',
    }
  } finally {
    db?.close()
  }
}

async function checkReddit(config: Config, noteDate: (res: Response, from: string, sentAt: number) => void): Promise<CheckResult> {
  const name = 'Reddit'
  if (config.demo) return { status: 'ok', name, detail: 'demo forum (DEMO=1): Reddit is not used' }
  const { reddit, forums } = config
  const atom = !reddit.clientId && reddit.mode === 'atom'
  const mode = reddit.clientId ? 'OAuth' : atom ? 'Atom feed' : 'public JSON'
  const headers: Record<string, string> = { 'User-Agent': reddit.userAgent, Accept: atom ? 'application/atom+xml' : 'application/json' }
  try {
    if (reddit.clientId) {
      const sentAt = Date.now()
      const res = await fetch(reddit.authUrl, {
        method: 'POST',
        headers: {
          Authorization: `Basic ${btoa(`${reddit.clientId}:${reddit.clientSecret}`)}`,
          'User-Agent': reddit.userAgent,
          'Content-Type': 'application/x-www-form-urlencoded',
        },
        body: 'grant_type=client_credentials',
        signal: AbortSignal.timeout(TIMEOUT_MS),
      })
      noteDate(res, 'Reddit', sentAt)
      const body = (await res.json().catch(() => null)) as { access_token?: string; error?: string } | null
      if (!res.ok || !body?.access_token)
        return {
          status: 'fail',
          name,
          detail: `OAuth token refused (HTTP ${res.status}${body?.error ? `, ${body.error}` : ''})`,
          fix: 'check REDDIT_CLIENT_ID and REDDIT_CLIENT_SECRET (a "script" or "web" app at reddit.com/prefs/apps; new apps need Reddit\'s approval), or unset both to read the Atom feed',
        }
      headers.Authorization = `bearer ${body.access_token}`
    }
    const multi = `${reddit.baseUrl}/r/${forums.accessories}+${forums.deals}/new`
    const url = atom ? `${multi}/.rss?limit=1` : `${multi}${reddit.clientId ? '' : '.json'}?limit=1&raw_json=1`
    const sentAt = Date.now()
    const res = await fetch(url, { headers, redirect: 'manual', signal: AbortSignal.timeout(TIMEOUT_MS) })
    noteDate(res, 'Reddit', sentAt)
    const text = res.status === 403 || res.status === 404 ? await readCapped(res, 64 * 1024).catch(() => '') : (await res.body?.cancel().catch(() => {}), '')
    const remaining = res.headers.get('x-ratelimit-remaining')
    const reset = res.headers.get('x-ratelimit-reset')
    const budget = remaining !== null ? `${Math.floor(Number(remaining))} requests left, window resets in ${reset ?? '?'} s` : 'no rate-limit headers'
    if (res.status === 429)
      return {
        status: 'fail',
        name,
        detail: `${mode}: rate limited (429), ${budget}`,
        fix: 'another client on this IP or app spends the budget; wait for the reset, or use OAuth (100 requests/min)',
      }
    if (res.status !== 200 && res.status < 500) {
      // the same reading as the scanner's: block page, closed JSON, login redirect, missing subreddit, refused key
      const why = refusal(reddit.clientId ? 'oauth' : atom ? 'atom' : 'public', res.status, res.headers.get('location'), text)
      if (why.kind !== 'server' || res.status < 400)
        return { status: 'fail', name, detail: `${mode}: HTTP ${res.status} (${why.kind.replace('_', ' ')})`, fix: why.message }
    }
    if (!res.ok)
      return {
        status: 'fail',
        name,
        detail: `${mode}: HTTP ${res.status} from ${reddit.baseUrl}`,
        fix: 'check REDDIT_BASE_URL and the subreddit names; try again if Reddit is down',
      }
    const warn = remaining !== null && Number(remaining) < 10
    return {
      status: warn ? 'warn' : 'ok',
      name,
      detail: `reachable, ${mode} mode, ${budget}`,
      fix: warn ? 'almost no requests left in this window: is another process scanning with the same credentials or IP?' : undefined,
    }
  } catch (err) {
    return {
      status: 'fail',
      name,
      detail: `${mode}: unreachable (${errorText(err)})`,
      fix: `check the network, DNS and proxy from this host to ${new URL(reddit.clientId ? reddit.authUrl : reddit.baseUrl).host}`,
    }
  }
}

/** Per forum the last post stored; one gone quiet (banned, dropped from the multireddit) or never seen is a warning. */
/**
 * DATABASE_URL: the PostgreSQL server answers, its version, and the migrations applied against this
 * version's (drizzle-pg/). Integrity and backups are the database server's (pg_amcheck, pg_dump).
 */
async function checkPostgres(url: string): Promise<{ result: CheckResult; db: AsyncDb | null; close(): Promise<void> }> {
  const name = 'database'
  const where = withoutPassword(url)
  let opened: OpenedPg | null = null
  const close = async () => {
    await opened?.close().catch(() => {})
  }
  try {
    opened = await openPg(url, { migrate: false, max: 1 })
    const [row] = await rawRows<{ v: string }>(opened.db, sql`SELECT current_setting('server_version') AS v`)
    const applied = new Set(await appliedMigrationTagsOf(opened.db).catch(() => [] as string[]))
    const known = pgMigrations.filter((m) => applied.has(m.tag)).length
    const unknown = [...applied].filter((t) => !pgMigrations.some((m) => m.tag === t))
    const level = `PostgreSQL ${row?.v ?? '?'} at ${where}, ${known}/${pgMigrations.length} migrations applied`
    if (unknown.length)
      return {
        result: {
          status: 'fail',
          name,
          detail: `${level}; ${unknown.length} applied by a newer version (${unknown[0]})`,
          fix: 'run the version of Dibs that wrote this database on every node',
        },
        db: opened.db,
        close,
      }
    if (known < pgMigrations.length)
      return { result: { status: 'warn', name, detail: level, fix: 'run `dibs migrate` (a node also migrates at startup)' }, db: opened.db, close }
    return { result: { status: 'ok', name, detail: `${level}; back it up with pg_dump (docs/operating.md)` }, db: opened.db, close }
  } catch (err) {
    await close()
    return {
      result: {
        status: 'fail',
        name,
        detail: `cannot reach ${where}: ${errorText(err)}`,
        fix: 'check DATABASE_URL (host, port, user, password, database) and that the server accepts this host',
      },
      db: null,
      close: async () => {},
    }
  }
}

async function checkForums(config: Config, shared?: AsyncDb): Promise<CheckResult> {
  const name = 'forums'
  let opened: OpenedDb | null = null
  try {
    const db = shared ?? (opened = openDb(config.dbPath, { readonly: true })).db
    const forums = await forumActivity({ db, now: () => new Date(), config })
    const detail = activityLine(forums, Date.now())
    if (forums.some((f) => f.flag))
      return {
        status: 'warn',
        name,
        detail,
        fix: 'open the subreddit on reddit.com; point the forum at a live one with ACCESSORIES_SUBREDDIT / DEALS_SUBREDDIT',
      }
    return { status: 'ok', name, detail }
  } catch (err) {
    return { status: 'warn', name, detail: `cannot read the posts: ${errorText(err)}`, fix: 'run doctor again once `dibs migrate` has run' }
  } finally {
    opened?.close()
  }
}

async function checkSmtp(config: Config): Promise<CheckResult> {
  const name = 'SMTP'
  if (!config.smtpUrl)
    return {
      status: 'warn',
      name,
      detail: 'no SMTP_URL: emails are written to DATA_DIR/outbox, not sent',
      fix: 'set SMTP_URL=smtps://user:password@smtp.example.com:465',
    }
  const url = new URL(config.smtpUrl)
  const where = `${url.protocol}//${url.host}`
  const timed = new URL(config.smtpUrl)
  for (const k of ['connectionTimeout', 'greetingTimeout', 'socketTimeout']) if (!timed.searchParams.has(k)) timed.searchParams.set(k, String(TIMEOUT_MS))
  const transport = nodemailer.createTransport(timed.toString())
  try {
    await transport.verify() // connect, EHLO, STARTTLS when offered, AUTH when credentials are given; no message
    return { status: 'ok', name, detail: `${where}: handshake${url.username ? ' and authentication' : ''} ok (no mail sent)` }
  } catch (err) {
    const e = err as { code?: string; responseCode?: number; message?: string }
    if (e.code === 'EAUTH')
      return {
        status: 'fail',
        name,
        detail: `${where}: authentication failed (${oneLine(e.message)})`,
        fix: 'check the user and password in SMTP_URL (percent-encode @ : / in them)',
      }
    if (e.code === 'ECONNREFUSED' || e.code === 'ETIMEDOUT' || e.code === 'ECONNECTION' || e.code === 'EDNS')
      return {
        status: 'fail',
        name,
        detail: `${where}: cannot connect (${oneLine(e.message)})`,
        fix: 'check the host and port in SMTP_URL (465 smtps://, 587 smtp:// with STARTTLS) and that outbound SMTP is not blocked',
      }
    return { status: 'fail', name, detail: `${where}: ${oneLine(e.message)}`, fix: 'check SMTP_URL; smtps:// for port 465, smtp:// for 587' }
  } finally {
    transport.close()
  }
}

function checkMailFrom(config: Config): CheckResult {
  const name = 'mail sender'
  const problem = mailFromProblem(config.mailFrom)
  if (!problem) return { status: 'ok', name, detail: `MAIL_FROM ${config.mailFrom} is on a public domain (publish SPF for ${mailDomain(config.mailFrom)})` }
  return { status: config.smtpUrl ? 'fail' : 'warn', name, detail: problem, fix: MAIL_FROM_FIX }
}

function checkDkim(config: Config): CheckResult {
  const name = 'DKIM'
  const domain = mailDomain(config.mailFrom)
  if (!config.dkim)
    return {
      status: 'warn',
      name,
      detail: 'not configured: receivers see unsigned mail (DMARC can pass on SPF alone, but one-click unsubscribe needs a signature)',
      fix: 'set DKIM_DOMAIN, DKIM_SELECTOR and DKIM_PRIVATE_KEY and publish the public key (docs/operating.md, Mail authentication)',
    }
  const { domain: d, selector } = config.dkim
  const aligned = domain === d || (domain?.endsWith(`.${d}`) ?? false)
  if (!aligned)
    return {
      status: 'fail',
      name,
      detail: `signs as d=${d} but MAIL_FROM is at ${domain}: DMARC needs the two aligned`,
      fix: `set DKIM_DOMAIN=${domain} (or MAIL_FROM on ${d})`,
    }
  return {
    status: 'ok',
    name,
    detail: `signs as d=${d}, s=${selector}, covering List-Unsubscribe and List-Unsubscribe-Post (TXT record at ${selector}._domainkey.${d})`,
  }
}

async function checkStripeKey(config: Config, noteDate: (res: Response, from: string, sentAt: number) => void): Promise<CheckResult> {
  const name = 'Stripe API'
  const base = config.stripe.apiBase ?? 'https://api.stripe.com'
  try {
    const sentAt = Date.now()
    const res = await fetch(`${base}/v1/products?limit=1`, {
      headers: { Authorization: `Bearer ${config.stripe.secretKey}` },
      signal: AbortSignal.timeout(TIMEOUT_MS),
    })
    noteDate(res, 'Stripe', sentAt)
    await res.body?.cancel().catch(() => {})
    if (res.status === 401)
      return {
        status: 'fail',
        name,
        detail: 'STRIPE_SECRET_KEY was refused (401)',
        fix: 'copy the current secret key from Stripe → Developers → API keys (a rolled key stops working)',
      }
    if (!res.ok)
      return {
        status: 'fail',
        name,
        detail: `HTTP ${res.status} from ${base}`,
        fix: 'a restricted key needs read access to products and prices; otherwise retry later',
      }
    return { status: 'ok', name, detail: `the secret key reads the catalog at ${new URL(base).host}` }
  } catch (err) {
    return { status: 'fail', name, detail: `unreachable (${errorText(err)})`, fix: `check the network from this host to ${new URL(base).host}` }
  }
}

async function checkAppUrl(config: Config, noteDate: (res: Response, from: string, sentAt: number) => void): Promise<CheckResult> {
  const name = 'APP_URL'
  const u = new URL(config.appUrl)
  const local = ['localhost', '127.0.0.1', '[::1]'].includes(u.hostname)
  const https = u.protocol === 'https:'
  if (!https && !local)
    return {
      status: 'fail',
      name,
      detail: `${config.appUrl} is http on a public address`,
      fix: 'serve Dibs over https (push notifications, secure cookies and Stripe need it) and set APP_URL=https://…',
    }
  let reach: string
  try {
    const sentAt = Date.now()
    const res = await fetch(`${config.appUrl}/healthz`, { signal: AbortSignal.timeout(TIMEOUT_MS), redirect: 'manual' })
    noteDate(res, 'APP_URL', sentAt)
    await res.body?.cancel().catch(() => {})
    if (res.status !== 200 && res.status !== 503)
      return {
        status: 'fail',
        name,
        detail: `${config.appUrl}/healthz answered HTTP ${res.status}`,
        fix: 'the proxy in front must pass every path to Dibs unchanged (and not redirect it)',
      }
    reach = `reachable (/healthz ${res.status})`
  } catch (err) {
    const running = await serverOnDataDir(config)
    if (!running)
      return {
        status: 'warn',
        name,
        detail: `${config.appUrl} not reachable, and no server runs on this DATA_DIR`,
        fix: 'start the server (`dibs serve`) and run doctor again to check the URL',
      }
    return {
      status: 'fail',
      name,
      detail: `${config.appUrl} not reachable (${errorText(err)}) though a server runs on port ${running.port}`,
      fix: 'check DNS and the reverse proxy: APP_URL must be the address browsers use',
    }
  }
  if (!https && !local)
    return {
      status: 'fail',
      name,
      detail: `${config.appUrl} is http, ${reach}`,
      fix: 'serve Dibs over https (push notifications, secure cookies and Stripe need it) and set APP_URL=https://…',
    }
  if (!https)
    return {
      status: 'warn',
      name,
      detail: `${config.appUrl} is http on this machine only, ${reach}`,
      fix: 'fine for a try-out; a real install needs an https APP_URL',
    }
  return { status: 'ok', name, detail: `https, ${reach}` }
}

export function checkClock(dates: Seen[]): CheckResult {
  const name = 'clock'
  const outside = dates.filter((d) => d.from !== 'APP_URL')
  const ref = outside[0] ?? dates[0]
  if (!ref)
    return {
      status: 'warn',
      name,
      detail: 'no HTTP answer with a Date header to compare with',
      fix: 'run NTP (systemd-timesyncd, chrony) and run doctor where Reddit is reachable',
    }
  // The remote clock read [date, date + 1 s) (a Date header has whole seconds) at some moment while
  // the request was out, [sentAt, receivedAt] here. Only the gap between the two spans is skew:
  // a slow answer or the rounding is not.
  const ahead = ref.sentAt - (ref.date + 1000)
  const behind = ref.date - ref.receivedAt
  const skew = Math.round((ahead > 0 ? ahead : behind > 0 ? -behind : 0) / 1000)
  const detail = `${Math.abs(skew)} s ${skew >= 0 ? 'ahead of' : 'behind'} ${ref.from}'s clock`
  const fix = 'sync the clock (NTP: systemd-timesyncd or chrony); two-factor codes and Stripe webhooks fail with a skewed clock'
  if (Math.abs(skew) >= SKEW_FAIL_S) return { status: 'fail', name, detail, fix }
  if (Math.abs(skew) >= SKEW_WARN_S) return { status: 'warn', name, detail, fix }
  return { status: 'ok', name, detail }
}

function errorText(err: unknown): string {
  const e = err as { name?: string; code?: string; message?: string }
  if (e.name === 'TimeoutError' || e.name === 'AbortError') return `no answer within ${TIMEOUT_MS / 1000} s`
  return oneLine(e.code ?? e.message ?? String(err))
}

const oneLine = (s: string | undefined) => (s ?? '').split('\n')[0]!.slice(0, 160)
