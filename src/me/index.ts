// /api/me: the signed-in user's profile and AccessInfo, name, password, account deletion and the
// download of all their data (./export.ts).
import { Elysia, t } from 'elysia'
import type { Deps } from '../deps'
import { accessInfo } from '../access/rules'
import { authPlugin } from '../auth/plugin'
import { changePassword } from '../auth/service'
import { clearSessionCookie } from '../auth/session'
import { signIn } from '../auth/sign-in'
import { authLimiters, limit } from '../auth/limits'
import { getUser, publicUser } from '../auth/users'
import { deleteAccount, updateName } from './service'
import { disableTwoFactor } from '../auth/two-factor'
import { beginEnrolment, completeEnrolment } from '../auth/enrolment'
import { log } from '../lib/log'
import { exportUserData } from './export'
import { Me2faEnableResponse, Me2faPostResponse, MeGetResponse } from './models'
import { OkMessageResponse, UserResponse } from '../auth/models'
import { errors, nullable } from '../lib/models'
import { otherResponses } from '../lib/models'

const loose = t.Object({}, { additionalProperties: true })
const tags = ['me']

export const meRoutes = (deps: Deps) => {
  const limits = authLimiters(deps)
  return new Elysia({ name: 'me-routes' })
    .use(authPlugin(deps))
    .get(
      '/api/me',
      async ({ user, access, session, set }) => {
        set.headers['cache-control'] = 'no-store'
        return {
          user: await publicUser(deps, await getUser(deps, user.id)),
          access: accessInfo(access, deps.now()),
          session: { secondFactor: session.secondFactor },
        }
      },
      {
        response: { 200: MeGetResponse, ...errors(401) },
        auth: true,
        detail: {
          summary: 'The signed-in user, their AccessInfo and this session ({secondFactor}: its sign-in presented a two-factor code); 401 when signed out',
          tags,
        },
      },
    )
    .get(
      '/api/me/export',
      async ({ user, set }) => {
        const data = await exportUserData(deps, user.id)
        set.headers['content-type'] = 'application/json; charset=utf-8'
        set.headers['content-disposition'] = `attachment; filename="${exportFileName(deps.config.appName, deps.now())}"`
        return JSON.stringify(data, null, 2)
      },
      {
        auth: true,
        detail: {
          summary:
            'All your data as one JSON download: account, access, sign-in records, tokens, terms, matches, archive, preferences, channels, devices, messages',
          description:
            'Without any secret: no password or code hashes, TOTP secret, channel secrets, push keys, token hashes or queued mail bodies. Session only (a personal access token gets 403).',
          tags,
          responses: otherResponses(
            { 200: { description: 'the JSON document, as an attachment (content-disposition)', type: 'application/json', headers: ['content-disposition'] } },
            401,
            403,
          ),
        },
      },
    )
    .patch('/api/me', async ({ user, body }) => ({ user: await publicUser(deps, await updateName(deps, user.id, (body as { name?: unknown }).name)) }), {
      response: { 200: UserResponse, ...errors(400, 401) },
      auth: true,
      body: loose,
      detail: { summary: 'Change the display name {name}', tags },
    })
    .post(
      '/api/me/password',
      async ({ user, session, body, request, server, set }) => {
        limit([[limits.passwordUser, String(user.id)]])
        const b = body as { currentPassword?: unknown; newPassword?: unknown; password?: unknown }
        await changePassword(deps, user.id, b.currentPassword, b.newPassword ?? b.password)
        // Every session ended; this device gets a fresh one (with its two-factor mark) so it stays signed in.
        set.headers['set-cookie'] = await signIn(deps, user.id, request, server, { secondFactor: session.secondFactor })
        log.info('password changed', { userId: user.id })
        return { ok: true, message: 'Your password has been changed. Other devices have been signed out.' }
      },
      {
        response: { 200: OkMessageResponse, ...errors(400, 401) },
        auth: true,
        body: loose,
        detail: { summary: 'Change password {currentPassword, newPassword}; signs out every other device', tags },
      },
    )
    .post(
      '/api/me/2fa',
      ({ user, session, body }) => {
        limit([[limits.passwordUser, String(user.id)]])
        return beginEnrolment(deps, user.id, session.sessionId, (body as { password?: unknown } | null)?.password)
      },
      {
        response: { 200: Me2faPostResponse, ...errors(400, 401) },
        auth: true,
        body: t.Optional(nullable(loose)),
        detail: {
          summary: 'Start two-factor setup {password} (or a sign-in within 10 min without one) → {secret, otpauthUrl, qrSvg} (not active until enabled)',
          tags,
        },
      },
    )
    .post(
      '/api/me/2fa/enable',
      ({ user, session, body }) => {
        limit([[limits.passwordUser, String(user.id)]])
        return completeEnrolment(deps, user.id, session.sessionId, (body as { code?: unknown }).code)
      },
      {
        response: { 200: Me2faEnableResponse, ...errors(400, 401) },
        auth: true,
        body: loose,
        detail: { summary: 'Confirm with a current code {code} → {recoveryCodes} (10, shown once); signs out every other device', tags },
      },
    )
    .delete(
      '/api/me/2fa',
      async ({ user, body }) => {
        limit([[limits.passwordUser, String(user.id)]])
        await disableTwoFactor(deps, user.id, (body ?? {}) as { password?: unknown; code?: unknown })
        return { ok: true, message: 'Two-factor authentication is off.' }
      },
      {
        response: { 200: OkMessageResponse, ...errors(400, 401) },
        auth: true,
        body: t.Optional(nullable(loose)),
        detail: { summary: 'Turn two-factor sign-in off {password} (or {code} without a password)', tags },
      },
    )
    .delete(
      '/api/me',
      async ({ user, session, body, set }) => {
        limit([[limits.passwordUser, String(user.id)]])
        await deleteAccount(deps, user.id, session.sessionId, (body as { password?: unknown } | null)?.password)
        set.headers['set-cookie'] = clearSessionCookie(deps)
        log.info('account deleted', { userId: user.id })
        return { ok: true, message: 'Your account has been deleted.' }
      },
      {
        response: { 200: OkMessageResponse, ...errors(400, 401) },
        auth: true,
        body: t.Optional(nullable(loose)),
        detail: { summary: 'Delete the account {password} (or a sign-in within 10 min for Google-only accounts)', tags },
      },
    )
}

/** e.g. dibs-data-2026-01-31.json */
export function exportFileName(appName: string, now: Date): string {
  const slug =
    appName
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '') || 'data'
  return `${slug}-data-${now.toISOString().slice(0, 10)}.json`
}
