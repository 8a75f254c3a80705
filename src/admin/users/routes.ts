// /api/admin/users — the Users page: the account table (search, role/status/trial-ending filters,
// pages), one account's detail, and every per-account action. Each action is audited
// ('user.<verb>', target 'user:<id>', result ok | failed).
import { Elysia, t } from 'elysia'
import { authPlugin } from '../../auth/plugin'
import { badRequest } from '../../lib/errors'
import { audited } from '../../audit/log'
import type { AdminDeps } from '../shared/deps'
import { readDays, readListQuery, readPlan, readRole, readUntil } from './input'
import { listUsers, userDetail } from './view'
import {
  AdminUsersGetResponse,
  AdminUsersIdBanResponse,
  AdminUsersIdGrantResponse,
  AdminUserEmailResponse,
  AdminUsersIdRoleResponse,
  AdminUsersIdSignOutResponse,
  AdminUsersIdTrialResponse,
  AdminUsersPostResponse,
  AdminUserDetailResponse,
} from '../models'
import { errors, nullable } from '../../lib/models'
import {
  addUser,
  adminResetTwoFactor,
  changeRole,
  deleteUser,
  endTrial,
  extendTrial,
  grantGift,
  sendPasswordReset,
  setBanned,
  signOutEverywhere,
  type Admin,
} from './actions'

const tags = ['admin']
const loose = t.Object({}, { additionalProperties: true })
const idParam = t.Object({ id: t.String() })

function readId(raw: string): number {
  const id = Number(raw)
  if (!Number.isInteger(id) || id < 1) throw badRequest('User id must be a positive whole number.', 'INVALID_ID')
  return id
}

export const usersRoutes = (deps: AdminDeps) => {
  const act = <T>(admin: Admin, action: string, userId: number | null, details: Record<string, unknown>, run: () => T | Promise<T>) =>
    audited(deps, { actor: { id: admin.id, email: admin.email }, action, target: userId === null ? null : `user:${userId}`, details }, run, (r) =>
      r && typeof r === 'object' ? (r as Record<string, unknown>) : {},
    )
  return new Elysia({ name: 'admin-users' })
    .use(authPlugin(deps))
    .get('/api/admin/users', ({ query }) => listUsers(deps, readListQuery(query as Record<string, string | undefined>)), {
      response: { 200: AdminUsersGetResponse, ...errors(401, 403) },
      admin: true,
      detail: {
        summary: 'Accounts, newest first: ?q (email or name), role, status (active|inactive|banned|unconfirmed), trialEnding=1, page, pageSize (10|25|50|100)',
        tags,
      },
    })
    .get('/api/admin/users/:id', async ({ params }) => userDetail(deps, readId(params.id)), {
      response: { 200: AdminUserDetailResponse, ...errors(400, 401, 403, 404) },
      admin: true,
      params: idParam,
      detail: { summary: 'One account: access, billing, terms per category, match counts, notification settings, last sign-in, audit rows about it', tags },
    })
    .post(
      '/api/admin/users',
      async ({ user, body }) => {
        const b = body as Record<string, unknown>
        const role = b.role === undefined || b.role === null || b.role === '' ? null : readRole(b.role)
        const email = typeof b.email === 'string' ? b.email.trim().toLowerCase() : null
        const created = await act(user, 'user.create', null, { email, mode: b.mode, role }, () => addUser(deps, user, b, role))
        return {
          ...created,
          message: created.mode === 'invited' ? `Invitation sent to ${created.email}.` : `Account ${created.email} created.`,
        }
      },
      {
        response: { 200: AdminUsersPostResponse, ...errors(400, 401, 403) },
        admin: true,
        body: loose,
        detail: { summary: "Add user {email, name?, mode: 'confirmed' (with password) | 'invited' (emailed link to set one), role?}", tags },
      },
    )
    .post(
      '/api/admin/users/:id/role',
      ({ user, params, body }) => {
        const id = readId(params.id)
        const role = readRole((body as { role?: unknown }).role)
        return act(user, 'user.role', id, { role }, () => changeRole(deps, user, id, role))
      },
      {
        response: { 200: AdminUsersIdRoleResponse, ...errors(400, 401, 403, 404) },
        admin: true,
        params: idParam,
        body: loose,
        detail: { summary: 'Change role/tier {role}: admin, product, gd, product+gd, app_trial, trial_expired, none', tags },
      },
    )
    .post(
      '/api/admin/users/:id/grant',
      ({ user, params, body }) => {
        const id = readId(params.id)
        const b = body as { plan?: unknown; until?: unknown }
        const plan = readPlan(b.plan, deps.config.productName)
        const until = readUntil(b.until, deps.now())
        return act(user, 'user.grant', id, { plan, until: until.toISOString() }, () => grantGift(deps, user, id, plan, until))
      },
      {
        response: { 200: AdminUsersIdGrantResponse, ...errors(400, 401, 403, 404) },
        admin: true,
        params: idParam,
        body: loose,
        detail: { summary: "Gifted access {plan, until: '2026-12-31'} (status 'gifted')", tags },
      },
    )
    .post(
      '/api/admin/users/:id/trial',
      ({ user, params, body }) => {
        const id = readId(params.id)
        const b = body as { action?: unknown; days?: unknown }
        if (b.action === 'end') return act(user, 'user.trial_end', id, {}, () => endTrial(deps, user, id))
        if (b.action !== 'extend') throw badRequest("Action must be 'extend' or 'end'.", 'VALIDATION')
        const days = readDays(b.days)
        return act(user, 'user.trial_extend', id, { days }, () => extendTrial(deps, user, id, days))
      },
      {
        response: { 200: AdminUsersIdTrialResponse, ...errors(400, 401, 403, 404) },
        admin: true,
        params: idParam,
        body: loose,
        detail: { summary: "Trial {action: 'extend', days: 1–90} or {action: 'end'}", tags },
      },
    )
    .post(
      '/api/admin/users/:id/ban',
      ({ user, params }) => act(user, 'user.ban', readId(params.id), {}, () => setBanned(deps, user, Number(params.id), true)),
      {
        response: { 200: AdminUsersIdBanResponse, ...errors(400, 401, 403, 404) },
        admin: true,
        params: idParam,
        detail: { summary: 'Ban: sign-in refused, every session ends and its open tabs are signed out at once', tags },
      },
    )
    .post(
      '/api/admin/users/:id/unban',
      ({ user, params }) => act(user, 'user.unban', readId(params.id), {}, () => setBanned(deps, user, Number(params.id), false)),
      { response: { 200: AdminUsersIdBanResponse, ...errors(400, 401, 403, 404) }, admin: true, params: idParam, detail: { summary: 'Unban', tags } },
    )
    .post(
      '/api/admin/users/:id/password-reset',
      ({ user, params }) => act(user, 'user.password_reset', readId(params.id), {}, () => sendPasswordReset(deps, Number(params.id))),
      {
        response: { 200: AdminUserEmailResponse, ...errors(400, 401, 403, 404) },
        admin: true,
        params: idParam,
        detail: { summary: 'Email the account a password-reset link (valid 1 hour)', tags },
      },
    )
    .post(
      '/api/admin/users/:id/sign-out',
      ({ user, params }) => act(user, 'user.sign_out', readId(params.id), {}, () => signOutEverywhere(deps, Number(params.id))),
      {
        response: { 200: AdminUsersIdSignOutResponse, ...errors(400, 401, 403, 404) },
        admin: true,
        params: idParam,
        detail: { summary: 'Sign the account out on all devices', tags },
      },
    )
    .post(
      '/api/admin/users/:id/reset-2fa',
      ({ user, params }) => act(user, 'user.reset_2fa', readId(params.id), {}, () => adminResetTwoFactor(deps, Number(params.id))),
      {
        response: { 200: AdminUsersIdSignOutResponse, ...errors(400, 401, 403, 404) },
        admin: true,
        params: idParam,
        detail: { summary: 'Turn two-factor sign-in off (lost phone and codes); ends every session, emails the owner', tags },
      },
    )
    .delete(
      '/api/admin/users/:id',
      async ({ user, params, body }) => {
        const id = readId(params.id)
        const result = await act(user, 'user.delete', id, {}, () => deleteUser(deps, user, id, (body as { confirm?: unknown } | null)?.confirm))
        await deps.matcher.sync() // the account's terms left the table
        return result
      },
      {
        response: { 200: AdminUserEmailResponse, ...errors(400, 401, 403, 404) },
        admin: true,
        params: idParam,
        body: t.Optional(nullable(loose)),
        detail: { summary: "Delete the account and everything it owns {confirm: the account's email}", tags },
      },
    )
}
