// src/notify/trial.ts with src/access/trial-notices.ts: the trials due a reminder are read from
// user_access, their accounts from src/auth; only confirmed, unbanned accounts are emailed and marked.
import { afterEach, beforeEach, expect, test } from 'bun:test'
import { userAccess, users } from '../../../src/db/schema'
import { runTrialEmails } from '../../../src/notify/trial'
import { storedAccess } from '../../../src/access/accounts'
import { makeDeps, type TestDeps } from '../../helpers'

let deps: TestDeps
beforeEach(() => {
  deps = makeDeps()
})
afterEach(() => deps.close())

function trialUser(email: string, opts: { confirmed: boolean; banned?: boolean; endsInMs: number }): number {
  const now = deps.now()
  const { id } = deps.db
    .insert(users)
    .values({ email, createdAt: now, emailConfirmedAt: opts.confirmed ? now : null, bannedAt: opts.banned ? now : null })
    .returning({ id: users.id })
    .get()
  deps.db
    .insert(userAccess)
    .values({ userId: id, role: 'app_trial', subscriptionStatus: 'trialing', accessExpiresAt: new Date(now.getTime() + opts.endsInMs) })
    .run()
  return id
}

test('only confirmed, unbanned accounts get the reminders and are marked', async () => {
  const day = 86_400_000
  const ok = trialUser('ok@example.com', { confirmed: true, endsInMs: day })
  const unconfirmed = trialUser('new@example.com', { confirmed: false, endsInMs: day })
  const banned = trialUser('banned@example.com', { confirmed: true, banned: true, endsInMs: day })
  const ended = trialUser('ended@example.com', { confirmed: true, endsInMs: -day })
  const endedBanned = trialUser('ended-banned@example.com', { confirmed: true, banned: true, endsInMs: -day })
  expect(await runTrialEmails(deps)).toEqual({ ending: 1, ended: 1 })
  const marked = async (id: number) => {
    const row = (await storedAccess(deps, id))!
    return [row.trialEndingNotifiedAt !== null, row.trialEndedNotifiedAt !== null]
  }
  expect(await Promise.all([ok, unconfirmed, banned, ended, endedBanned].map(marked))).toEqual([
    [true, false],
    [false, false],
    [false, false],
    [false, true],
    [false, false],
  ])
  expect(await runTrialEmails(deps)).toEqual({ ending: 0, ended: 0 })
})
