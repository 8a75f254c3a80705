// GET /api/me/export (issue 28 §3): everything Dibs holds about the signed-in user, as one JSON
// document — every row of every table with a user_id (tests/api/me-export.test.ts walks the schema
// to prove it), and matches' term links. Never a secret: no password hash, TOTP secret, recovery or
// session hashes, emailed-link tokens, channel signing secrets or Discord webhook tokens, push keys,
// access-token hashes, or the bodies of queued mails (a reset mail holds its link). Each owner reads
// its own tables (`user-data.ts` of access/, auth/, matches/, terms/, notify/, metrics/; the outbox's
// stats.ts); this file only puts their rows together.
import { feedKeyOf } from '../feeds/keys'
import type { Deps } from '../deps'
import { getUser } from '../auth/users'
import { listTokens } from '../auth/access-tokens'
import { endpointView, userEndpoints } from '../notify/endpoints'
import { deliveriesOf } from '../outbox/stats'
import { accessOfUser } from '../access/user-data'
import { signInData } from '../auth/user-data'
import { matchesOfUser } from '../matches/user-data'
import { latencyOfUser } from '../metrics/user-data'
import { notifyOfUser } from '../notify/user-data'
import { termsOfUser } from '../terms/user-data'

export const EXPORT_FORMAT = 'dibs-export/1'

/** The push service a device's subscription points at (its full endpoint URL is a capability: left out). */
function pushService(endpoint: string): string {
  try {
    return new URL(endpoint).host
  } catch {
    return ''
  }
}

/** A row without its user_id (the whole export is one user's). */
function own<R extends { userId: unknown }>(row: R): Omit<R, 'userId'> {
  const { userId: _u, ...rest } = row
  return rest
}

const nullOr = <R extends { userId: unknown }>(row: R | undefined) => (row === undefined ? null : own(row))

export async function exportUserData(deps: Pick<Deps, 'db' | 'sqlite' | 'now' | 'config'>, userId: number) {
  const user = await getUser(deps, userId)
  const matchData = await matchesOfUser(deps, userId)
  const match = (m: (typeof matchData.rows)[number]) => ({ ...own(m), termIds: matchData.links.filter((l) => l.matchId === m.id).map((l) => l.termId) })
  const access = await accessOfUser(deps, userId)
  const notify = await notifyOfUser(deps, userId)

  return {
    format: EXPORT_FORMAT,
    exportedAt: deps.now().toISOString(),
    account: {
      id: user.id,
      email: user.email,
      name: user.name,
      hasPassword: user.passwordHash !== null,
      emailConfirmedAt: user.emailConfirmedAt,
      bannedAt: user.bannedAt,
      createdAt: user.createdAt,
      updatedAt: user.updatedAt,
    },
    access: nullOr(access.access),
    accessHistory: access.history,
    signIn: {
      ...(await signInData(deps, userId)),
      tokens: await listTokens(deps, userId),
      /** the feed addresses exist since then (their secret is not data of yours to keep: rotate it in Settings) */
      feedKey: await feedKeyOf(deps, userId),
    },
    terms: (await termsOfUser(deps, userId)).map(own),
    matches: matchData.rows.filter((m) => m.archivedAt === null).map(match),
    archive: matchData.rows.filter((m) => m.archivedAt !== null).map(match),
    preferences: {
      /** null: the defaults (src/matches/defaults.ts, src/notify) */
      matching: nullOr(matchData.defaults),
      notifications: nullOr(notify.prefs),
    },
    channels: (await userEndpoints(deps, userId)).map((r) => endpointView(r, deps.config)),
    devices: notify.devices.map((d) => ({
      id: d.id,
      pushService: pushService(d.endpoint),
      userAgent: d.userAgent,
      createdAt: d.createdAt,
      lastSuccessAt: d.lastSuccessAt,
    })),
    messages: notify.messages.map(own),
    deliveries: await deliveriesOf(deps, userId),
    alertTimings: (await latencyOfUser(deps, userId)).map(own),
  }
}
export type UserExport = Awaited<ReturnType<typeof exportUserData>>
