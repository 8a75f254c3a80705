// Which account a Google profile signs into: the linked identity first; else an existing account
// with the same (Google-verified) email, which gets linked; else a new confirmed account whose
// access starts now (trial or default plan). The lookups and writes are one transaction, so a double
// callback or a concurrent sign-up with the same email cannot make two accounts or a unique
// violation, and a password set meanwhile on a confirmed account is never dropped
// (docs/atomicity-audit.md D6).
import { and, eq, isNull } from 'drizzle-orm'
import { asAsync } from '../db/async-sqlite'
import { authIdentities, users, type User } from '../db/schema'
import type { Deps } from '../deps'
import { startAccess } from '../access/service'
import type { GoogleProfile } from './google'

export class GoogleAccountError extends Error {}

export async function userForGoogleProfile(deps: Pick<Deps, 'db' | 'now' | 'config' | 'bus'>, profile: GoogleProfile): Promise<User> {
  const user = await asAsync(deps.db).transaction(async (tx): Promise<User> => {
    const [linked] = await tx
      .select({ user: users })
      .from(authIdentities)
      .innerJoin(users, eq(users.id, authIdentities.userId))
      .where(and(eq(authIdentities.provider, 'google'), eq(authIdentities.providerUserId, profile.sub)))
      .limit(1)
    if (linked !== undefined) return linked.user
    if (!profile.emailVerified) throw new GoogleAccountError('Google email is not verified')
    const now = deps.now()
    await tx
      .insert(users)
      .values({ email: profile.email, name: profile.name, passwordHash: null, emailConfirmedAt: now, createdAt: now, updatedAt: now })
      .onConflictDoNothing({ target: users.email })
    const [found] = await tx.select().from(users).where(eq(users.email, profile.email)).limit(1)
    let account = found!
    await tx
      .insert(authIdentities)
      .values({ userId: account.id, provider: 'google', providerUserId: profile.sub, email: profile.email, createdAt: now })
      .onConflictDoNothing()
    // Google vouched for the address, so a pending email confirmation is done too. The password
    // of an unconfirmed account was never proven by the address owner (anyone can sign up with
    // any email), so it is dropped rather than left as a back door.
    if (account.emailConfirmedAt === null) {
      const [confirmed] = await tx
        .update(users)
        .set({ emailConfirmedAt: now, passwordHash: null, updatedAt: now })
        .where(and(eq(users.id, account.id), isNull(users.emailConfirmedAt)))
        .returning()
      if (confirmed !== undefined) account = confirmed
    }
    return account
  })
  if (user.bannedAt !== null) throw new GoogleAccountError('account suspended')
  await startAccess(deps, user.id)
  return user
}
