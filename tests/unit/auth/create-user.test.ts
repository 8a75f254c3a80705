// createUser (the CLI's `dibs users create`) awaits the password hash between its check and its insert, so
// another process — or another call — may create the same account meanwhile: the loser gets the same
// 409 'EMAIL_TAKEN' as a plain duplicate, never a database error (docs/atomicity-audit.md D7).
import { expect, test } from 'bun:test'
import { createUser } from '../../../src/auth/service'
import { AppError } from '../../../src/lib/errors'
import { makeDeps } from '../../helpers'

test('two creations of one account at once: one account, and the other gets 409 EMAIL_TAKEN', async () => {
  const deps = await makeDeps()
  const results = await Promise.allSettled([
    createUser(deps, { email: 'Twice@example.com', password: 'long-enough-1' }),
    createUser(deps, { email: 'twice@example.com', password: 'long-enough-2' }),
  ])
  const refused = results.flatMap((r) => (r.status === 'rejected' ? [r.reason] : []))
  expect(results.filter((r) => r.status === 'fulfilled').length).toBe(1)
  expect(refused.length).toBe(1)
  expect(refused[0]).toBeInstanceOf(AppError)
  expect([(refused[0] as AppError).status, (refused[0] as AppError).code]).toEqual([409, 'EMAIL_TAKEN'])
  deps.close()
})
