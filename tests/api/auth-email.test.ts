// The whole email round trip over real SMTP (smtp-server on loopback) and a real HTTP server:
// sign up, read the delivered message, follow its link, sign in; and the reset email likewise.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { startTestServer } from '../helpers'
import { startSmtp, type FakeSmtp } from '../fakes/smtp'
import { outboxWorker } from '../../src/outbox/worker'
import { attachListeners } from '../../src/services'
import { channelStore } from '../../src/notify/channel-store'
import { createChannels } from '../../src/outbox/channels'
import { expectAutoSubmitted, expectMailClientLayout, expectTextLikeHtml } from './mail-checks'

let smtp: FakeSmtp
let server: Awaited<ReturnType<typeof startTestServer>>
let worker: ReturnType<typeof outboxWorker>

beforeAll(async () => {
  smtp = await startSmtp()
  server = await startTestServer({ SMTP_URL: smtp.url, MAIL_FROM: 'Dibs <no-reply@dibs.test>' })
  worker = outboxWorker(server.deps, createChannels(server.deps, channelStore))
  attachListeners(server.deps, { outbox: worker })
})
afterAll(async () => {
  await worker?.stop()
  await server?.stop()
  await smtp?.stop()
})

const post = (path: string, json: unknown, cookie?: string) =>
  fetch(server.url + path, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/json', origin: server.deps.config.appUrl, ...(cookie ? { cookie } : {}) },
    body: JSON.stringify(json),
  })

async function nextMail(to: string, n: number) {
  await worker.tick()
  const all = await smtp.waitFor(n)
  const mail = all.at(-1)!
  expect(mail.to).toEqual([to])
  return mail
}

describe('email round trip over SMTP', () => {
  test('sign up → confirmation email → follow the link → signed in with access → sign in again with the password', async () => {
    const signup = await post('/api/auth/signup', { name: 'Sam', email: 'sam@example.com', password: 'sam-password' })
    expect(signup.status).toBe(201)
    const mail = await nextMail('sam@example.com', 1)
    expect(mail.subject).toBe('Confirm your email for Dibs')
    expect(mail.headers.from).toContain('no-reply@dibs.test')
    expect(mail.headers['content-type']).toContain('multipart/alternative')
    const link = /(http:\/\/127\.0\.0\.1:\d+\/api\/auth\/confirm\?token=[\w-]+)/.exec(mail.text)![1]!
    expect(mail.html).toContain(link)

    const beforeConfirm = await post('/api/auth/login', { email: 'sam@example.com', password: 'sam-password' })
    expect(beforeConfirm.status).toBe(403)
    expect((await beforeConfirm.json()).error.title).toBe('Email not confirmed')

    // the browser that signed up follows the link: it carries the signup cookie
    const signupCookie = signup.headers.getSetCookie()[0]!.split(';')[0]!
    const confirm = await fetch(link, { redirect: 'manual', headers: { cookie: signupCookie } })
    expect(confirm.status).toBe(302)
    expect(confirm.headers.get('location')).toBe('/email-confirmation?status=success')
    const cookie = confirm.headers.getSetCookie()[0]!.split(';')[0]!
    const me = await (await fetch(server.url + '/api/me', { headers: { cookie } })).json()
    expect(me.user.email).toBe('sam@example.com')
    expect(me.access.hasAccess).toBe(true)

    const again = await fetch(link, { redirect: 'manual' })
    expect(again.headers.get('location')).toBe('/email-confirmation?status=success')
    expect(again.headers.getSetCookie()).toEqual([])

    const login = await post('/api/auth/login', { email: 'sam@example.com', password: 'sam-password' })
    expect(login.status).toBe(200)
  })

  test('account emails read well in real mail clients: table layout, Auto-Submitted, no URL glued to a full stop', async () => {
    const before = smtp.messages.length
    // sam@example.com has an account: signing up again mails the account-exists notice.
    expect((await post('/api/auth/signup', { name: 'Sam', email: 'sam@example.com', password: 'another-password' })).status).toBe(201)
    expect((await post('/api/auth/signup', { name: 'Kim <b>', email: 'kim@example.com', password: 'kim-password' })).status).toBe(201)
    await worker.tick()
    const mails = (await smtp.waitFor(before + 2)).slice(before)
    for (const mail of mails) {
      expectMailClientLayout(mail, { button: true })
      expectAutoSubmitted(mail)
      expect(mail.headers['list-id']).toBeUndefined()
      expectTextLikeHtml(mail)
    }
    const exists = mails.find((m) => m.to[0] === 'sam@example.com')!
    expect(exists.text).toContain(`${server.deps.config.appUrl}/forgot-password`)
    const confirm = mails.find((m) => m.to[0] === 'kim@example.com')!
    expectTextLikeHtml(confirm, ['Hi Kim <b>,'])
  })

  test('forgot → reset email → set a new password on /reset-password → sign in with it', async () => {
    const before = smtp.messages.length
    expect((await post('/api/auth/forgot', { email: 'sam@example.com' })).status).toBe(200)
    const mail = await nextMail('sam@example.com', before + 1)
    const link = new URL(/(http:\/\/\S+\/reset-password\?token=[\w-]+)/.exec(mail.text)![1]!)
    const page = await fetch(link, { headers: { accept: 'text/html' } })
    expect(page.status).toBe(200)
    expect(await page.text()).toContain('<div id="root">')
    const reset = await post('/api/auth/reset', { token: link.searchParams.get('token'), password: 'brand-new-pass' })
    expect(reset.status).toBe(200)
    expect((await post('/api/auth/login', { email: 'sam@example.com', password: 'brand-new-pass' })).status).toBe(200)
  })
})
