// Which account a Google profile signs into: the linked identity first; else an existing account
// with the same (Google-verified) email, which gets linked; else a new confirmed account whose
// access starts now (trial or default plan).
import { and, eq } from 'drizzle-orm'
import { authIdentities, users, type User } from '../db/schema'
import type { Deps } from '../deps'
import { startAccess } from '../access/service'
import type { GoogleProfile } from './google'

export class GoogleAccountError extends Error {}

export async function userForGoogleProfile(deps: Pick<Deps, 'db' | 'now' | 'config' | 'bus'>, profile: GoogleProfile): Promise<User> {
  const linked = deps.db
    .select({ user: users })
    .from(authIdentities)
    .innerJoin(users, eq(users.id, authIdentities.userId))
    .where(and(eq(authIdentities.provider, 'google'), eq(authIdentities.providerUserId, profile.sub)))
    .get()
  let user = linked?.user
  if (user === undefined) {
    if (!profile.emailVerified) throw new GoogleAccountError('Google email is not verified')
    const now = deps.now()
    user =
      deps.db.select().from(users).where(eq(users.email, profile.email)).get() ??
      deps.db
        .insert(users)
        .values({ email: profile.email, name: profile.name, passwordHash: null, emailConfirmedAt: now, createdAt: now, updatedAt: now })
        .returning()
        .get()
    deps.db
      .insert(authIdentities)
      .values({ userId: user.id, provider: 'google', providerUserId: profile.sub, email: profile.email, createdAt: now })
      .onConflictDoNothing()
      .run()
    // Google vouched for the address, so a pending email confirmation is done too. The password
    // of an unconfirmed account was never proven by the address owner (anyone can sign up with
    // any email), so it is dropped rather than left as a back door.
    if (user.emailConfirmedAt === null) {
      deps.db.update(users).set({ emailConfirmedAt: now, passwordHash: null, updatedAt: now }).where(eq(users.id, user.id)).run()
      user = { ...user, emailConfirmedAt: now, passwordHash: null }
    }
  }
  if (user.bannedAt !== null) throw new GoogleAccountError('account suspended')
  await startAccess(deps, user.id)
  return user
}
