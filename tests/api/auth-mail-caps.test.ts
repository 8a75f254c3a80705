// Mail bombing through the account routes (security review item 5): every email a stranger can cause
// (sign-up's confirmation and "You already have an account", the confirmation re-send) is capped per
// recipient, 3 an hour as forgot-password is; the HTTP answer is the same whether or not mail went out.
import { describe, expect, test } from 'bun:test'
import { call, createUserWithSession, eachTestApp } from '../helpers'
import { emails } from './auth-helpers'

const t = eachTestApp()

const signup = (email: string, i = 0) => call(t.app, 'POST', '/api/auth/signup', { json: { name: `Guest ${i}`, email, password: `hard-to-guess-${i}` } })
/** The answer without the address it echoes. */
const strip = (r: Awaited<ReturnType<typeof signup>>) => ({ status: r.status, body: { ...r.body, email: undefined } })

describe('per-recipient cap on mail a stranger can cause', () => {
  test('signing up again and again with an existing address sends "You already have an account" 3 times an hour, answering the same each time', async () => {
    const owner = await createUserWithSession(t.deps, { email: 'taken@example.com', password: 'owner-password-1' })
    const answers = []
    for (let i = 0; i < 12; i++) answers.push(strip(await signup(owner.email, i)))
    expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1)
    expect(answers[0]).toEqual(strip(await signup('brand-new@example.com', 99)))
    expect((await emails(t.deps, owner.email)).filter((m) => m.kind === 'account_exists')).toHaveLength(3)
    t.clock.advance(60 * 60_000 + 1)
    expect((await signup(owner.email, 12)).status).toBe(201)
    expect((await emails(t.deps, owner.email)).filter((m) => m.kind === 'account_exists')).toHaveLength(4)
  })

  test('an unconfirmed address gets at most 3 confirmation emails an hour from sign-ups and re-sends together', async () => {
    const email = 'pending@example.com'
    for (let i = 0; i < 3; i++) expect((await signup(email, i)).status).toBe(201)
    expect((await emails(t.deps, email)).filter((m) => m.kind === 'confirm')).toHaveLength(3)
    for (let i = 3; i < 8; i++) expect((await signup(email, i)).status).toBe(201)
    const resend = await call(t.app, 'POST', '/api/auth/resend', { json: { email } })
    expect(resend.status).toBe(200)
    expect(resend.body).toEqual({ title: 'Confirmation email resent', message: 'Please check your inbox and spam folder.' })
    expect((await emails(t.deps, email)).filter((m) => m.kind === 'confirm')).toHaveLength(3)
  })

  test('the cap is per recipient: another address is not held back', async () => {
    const owner = await createUserWithSession(t.deps, { email: 'busy@example.com', password: 'owner-password-1' })
    for (let i = 0; i < 6; i++) await signup(owner.email, i)
    expect((await signup('someone-else@example.com', 7)).status).toBe(201)
    expect((await emails(t.deps, 'someone-else@example.com')).filter((m) => m.kind === 'confirm')).toHaveLength(1)
  })
})
