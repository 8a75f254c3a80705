// Helpers shared by the account suites: read queued emails, follow their links, sign up and in.
import { desc, eq } from 'drizzle-orm'
import { asAsync } from '../../src/db/async-sqlite'
import { outbox } from '../../src/db/schema'
import type { Deps } from '../../src/deps'
import { call } from '../helpers'

export type App = { handle(r: Request): Promise<Response> }
export type QueuedEmail = { kind: string; to: string; subject: string; text: string; html: string }

/** The queued emails, newest first (to one address when given); on either engine. */
export async function emails(deps: Pick<Deps, 'db'>, to?: string): Promise<QueuedEmail[]> {
  const rows = await asAsync(deps.db).select().from(outbox).where(eq(outbox.channel, 'email')).orderBy(desc(outbox.id))
  return rows
    .map((r) => ({ kind: r.kind, ...(r.payload as { to: string; subject: string; text: string; html: string }) }))
    .filter((m) => to === undefined || m.to === to)
}

export async function lastEmail(deps: Pick<Deps, 'db'>, to: string, kind?: string): Promise<QueuedEmail | undefined> {
  return (await emails(deps, to)).find((m) => kind === undefined || m.kind === kind)
}

/** The first APP_URL link in a message, as a path + query for app.handle. */
export function linkIn(text: string): string {
  const m = /https?:\/\/[^\s"<>]+/.exec(text)
  if (!m) throw new Error(`no link in: ${text}`)
  const u = new URL(m[0])
  return u.pathname + u.search
}

export function cookieFrom(res: { headers: Headers }): string | null {
  const c = res.headers.getSetCookie().find((h) => h.startsWith('dibs_session='))
  if (!c) return null
  const pair = c.split(';')[0]!
  return pair === 'dibs_session=' ? null : pair
}

export function signupCookieFrom(res: { headers: Headers }): string | undefined {
  return res.headers
    .getSetCookie()
    .find((h) => h.startsWith('dibs_signup='))
    ?.split(';')[0]
}

export async function signupAndConfirm(app: App, deps: Pick<Deps, 'db'>, email: string, password = 'correct horse', name = 'Pat') {
  const s = await call(app, 'POST', '/api/auth/signup', { json: { name, email, password } })
  if (s.status !== 201) throw new Error(`signup ${s.status} ${JSON.stringify(s.body)}`)
  const mail = (await lastEmail(deps, email, 'confirm'))!
  // The same browser clicks the link: it carries the signup cookie, so the confirmation signs it in.
  const confirmed = await call(app, 'GET', linkIn(mail.text), { cookie: signupCookieFrom(s) })
  return { confirmed, cookie: cookieFrom(confirmed) }
}

export async function loginCookie(app: App, email: string, password: string) {
  const r = await call(app, 'POST', '/api/auth/login', { json: { email, password } })
  if (r.status !== 200) throw new Error(`login ${r.status} ${JSON.stringify(r.body)}`)
  return cookieFrom(r)!
}

export const BILLING_ON = { STRIPE_SECRET_KEY: 'sk_test_fake', STRIPE_PUBLISHABLE_KEY: 'pk_test_fake', STRIPE_WEBHOOK_SECRET: 'whsec_fake' }
