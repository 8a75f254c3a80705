// GET /api/me/export (issue 28 §3): everything Dibs holds about the signed-in user, as one JSON
// document — every row of every table with a user_id (tests/api/me-export.test.ts walks the schema
// to prove it), and matches' term links. Never a secret: no password hash, TOTP secret, recovery or
// session hashes, emailed-link tokens, channel signing secrets or Discord webhook tokens, push keys,
// access-token hashes, or the bodies of queued mails (a reset mail holds its link). The one reader
// that spans the owners' tables, read-only, so the export cannot drift from what each owner shows.
import { feedKeyOf } from '../feeds/keys'
import { asc, eq, inArray } from 'drizzle-orm'
import {
  accessHistory,
  alertLatency,
  authFactors,
  authIdentities,
  contactMessages,
  matchDefaults,
  matches,
  matchTerms,
  notificationPrefs,
  oneTimeTokens,
  pushSubscriptions,
  recoveryCodes,
  searchTerms,
  sessions,
  userAccess,
} from '../db/schema'
import type { Deps } from '../deps'
import { getUser } from '../auth/users'
import { listTokens } from '../auth/access-tokens'
import { endpointView, userEndpoints } from '../notify/endpoints'
import { deliveriesOf } from '../outbox/stats'

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

export function exportUserData(deps: Pick<Deps, 'db' | 'sqlite' | 'now' | 'config'>, userId: number) {
  const { db } = deps
  const user = getUser(deps, userId)
  const matchRows = db.select().from(matches).where(eq(matches.userId, userId)).orderBy(asc(matches.id)).all()
  const links = matchRows.length
    ? db
        .select()
        .from(matchTerms)
        .where(
          inArray(
            matchTerms.matchId,
            matchRows.map((m) => m.id),
          ),
        )
        .all()
    : []
  const match = (m: (typeof matchRows)[number]) => ({ ...own(m), termIds: links.filter((l) => l.matchId === m.id).map((l) => l.termId) })
  const access = db.select().from(userAccess).where(eq(userAccess.userId, userId)).get()

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
    access: nullOr(access),
    accessHistory: db
      .select({
        at: accessHistory.at,
        role: accessHistory.role,
        subscriptionStatus: accessHistory.subscriptionStatus,
        accessExpiresAt: accessHistory.accessExpiresAt,
        source: accessHistory.source,
      })
      .from(accessHistory)
      .where(eq(accessHistory.userId, userId))
      .orderBy(asc(accessHistory.id))
      .all(),
    signIn: {
      googleIdentities: db
        .select({
          provider: authIdentities.provider,
          providerUserId: authIdentities.providerUserId,
          email: authIdentities.email,
          createdAt: authIdentities.createdAt,
        })
        .from(authIdentities)
        .where(eq(authIdentities.userId, userId))
        .all(),
      twoFactor: db
        .select({ factorType: authFactors.factorType, verifiedAt: authFactors.verifiedAt, createdAt: authFactors.createdAt })
        .from(authFactors)
        .where(eq(authFactors.userId, userId))
        .all(),
      recoveryCodes: db
        .select({ createdAt: recoveryCodes.createdAt, usedAt: recoveryCodes.usedAt })
        .from(recoveryCodes)
        .where(eq(recoveryCodes.userId, userId))
        .all(),
      sessions: db
        .select({
          createdAt: sessions.createdAt,
          lastSeenAt: sessions.lastSeenAt,
          expiresAt: sessions.expiresAt,
          userAgent: sessions.userAgent,
          ip: sessions.ip,
        })
        .from(sessions)
        .where(eq(sessions.userId, userId))
        .all(),
      emailLinks: db
        .select({ purpose: oneTimeTokens.purpose, createdAt: oneTimeTokens.createdAt, expiresAt: oneTimeTokens.expiresAt, usedAt: oneTimeTokens.usedAt })
        .from(oneTimeTokens)
        .where(eq(oneTimeTokens.userId, userId))
        .all(),
      tokens: listTokens(deps, userId),
      /** the feed addresses exist since then (their secret is not data of yours to keep: rotate it in Settings) */
      feedKey: feedKeyOf(deps, userId),
    },
    terms: db.select().from(searchTerms).where(eq(searchTerms.userId, userId)).orderBy(asc(searchTerms.id)).all().map(own),
    matches: matchRows.filter((m) => m.archivedAt === null).map(match),
    archive: matchRows.filter((m) => m.archivedAt !== null).map(match),
    preferences: {
      /** null: the defaults (src/matches/defaults.ts, src/notify) */
      matching: nullOr(db.select().from(matchDefaults).where(eq(matchDefaults.userId, userId)).get()),
      notifications: nullOr(db.select().from(notificationPrefs).where(eq(notificationPrefs.userId, userId)).get()),
    },
    channels: userEndpoints(deps, userId).map((r) => endpointView(r, deps.config)),
    devices: db
      .select()
      .from(pushSubscriptions)
      .where(eq(pushSubscriptions.userId, userId))
      .all()
      .map((d) => ({ id: d.id, pushService: pushService(d.endpoint), userAgent: d.userAgent, createdAt: d.createdAt, lastSuccessAt: d.lastSuccessAt })),
    messages: db.select().from(contactMessages).where(eq(contactMessages.userId, userId)).all().map(own),
    deliveries: deliveriesOf(deps, userId),
    alertTimings: db.select().from(alertLatency).where(eq(alertLatency.userId, userId)).all().map(own),
  }
}
export type UserExport = ReturnType<typeof exportUserData>
