// `dibs users list|create|set-role|grant`: operator account management over the same services
// the API uses. Opens the database itself, so it works with or without a running server; when one
// runs, access changes reach its connected browsers through the relay.
import type { User } from '../db/schema'
import type { Deps } from '../deps'
import { flag, UsageError, type Args } from '../cli/args'
import type { Command } from '../cli/command'
import { formatTable } from '../cli/table'
import { grantPlan, setRole } from '../access/service'
import { usersWithAccess } from '../access/state'
import { effectiveRole, hasActiveAccess, isRole } from '../access/rules'
import { parsePlanId } from '../access/plans'
import { AppError } from '../lib/errors'
import { createUser, findUserByEmail } from './service'
import { resetTwoFactor, usersWithTwoFactor } from './two-factor'

async function userOrFail(deps: Deps, email: string | undefined): Promise<User> {
  if (!email) throw new UsageError('an email is required')
  const user = await findUserByEmail(deps, email)
  if (user === undefined) throw new Error(`no account for ${email}`)
  return user
}

/** '2026-12-31', an ISO time, or a relative '30d'. */
export function parseUntil(text: string, now: Date): Date {
  const rel = /^(\d+)d$/.exec(text.trim())
  const d = rel ? new Date(now.getTime() + Number(rel[1]) * 86_400_000) : new Date(/^\d{4}-\d{2}-\d{2}$/.test(text) ? `${text}T23:59:59.999Z` : text)
  if (Number.isNaN(d.getTime())) throw new UsageError(`--until: expected a date like 2026-12-31 or 30d, got "${text}"`)
  if (d.getTime() <= now.getTime()) throw new UsageError('--until must be in the future')
  return d
}

const subcommands: Record<string, (deps: Deps, args: Args) => Promise<void> | void> = {
  async list(deps) {
    const now = deps.now()
    const twoFactor = await usersWithTwoFactor(deps)
    const lines = (await usersWithAccess(deps)).map(({ user, access: state }) => {
      return [
        String(user.id),
        user.email,
        effectiveRole(state, now),
        hasActiveAccess(state, now) ? 'active' : 'inactive',
        state.subscriptionStatus ?? '-',
        state.accessExpiresAt?.toISOString().slice(0, 10) ?? '-',
        user.emailConfirmedAt ? 'confirmed' : 'unconfirmed',
        twoFactor.has(user.id) ? 'on' : '-',
        user.bannedAt ? 'banned' : '',
      ]
    })
    for (const line of formatTable(['id', 'email', 'role', 'access', 'status', 'until', 'email', '2fa', ''], lines)) console.log(line)
    if (lines.length === 0) console.log('(no accounts)')
  },
  async create(deps, args) {
    const email = flag(args, 'email')
    const password = flag(args, 'password')
    if (!email || !password) throw new UsageError('users create needs --email and --password')
    const role = flag(args, 'role')
    if (role !== undefined && role !== 'none' && !isRole(role))
      throw new UsageError(`--role: one of admin, product, gd, product+gd, app_trial, trial_expired, none; got "${role}"`)
    const user = await createUser(deps, {
      email,
      password,
      name: flag(args, 'name'),
      role,
      confirmed: args.flags.confirmed === true || args.flags.confirmed === 'true',
    })
    console.log(`created user ${user.id} ${user.email}${user.emailConfirmedAt ? ' (confirmed)' : ' (unconfirmed: a confirmation email is needed to sign in)'}`)
  },
  async 'set-role'(deps, args) {
    const [email, role] = args._.slice(1)
    if (!email || !role) throw new UsageError('users set-role needs <email> <role>')
    if (role !== 'none' && !isRole(role)) throw new UsageError(`role: one of admin, product, gd, product+gd, app_trial, trial_expired, none; got "${role}"`)
    const user = await userOrFail(deps, email)
    await setRole(deps, user.id, role, 'cli')
    console.log(`${user.email} is now ${role}`)
  },
  async grant(deps, args) {
    const [email, planText] = args._.slice(1)
    if (!email || !planText) throw new UsageError('users grant needs <email> <plan> --until <date>')
    const plan = parsePlanId(planText, deps.config.productName)
    if (plan === null) throw new UsageError(`plan: one of ${deps.config.productSlug}, gd, ${deps.config.productSlug}+gd; got "${planText}"`)
    const untilText = flag(args, 'until')
    if (!untilText) throw new UsageError('users grant needs --until <date> (e.g. 2026-12-31 or 30d)')
    const user = await userOrFail(deps, email)
    const until = parseUntil(untilText, deps.now())
    await grantPlan(deps, user.id, plan, until, 'cli')
    console.log(`${user.email} has ${plan} (gifted) until ${until.toISOString()}`)
  },
  async 'reset-2fa'(deps, args) {
    const user = await userOrFail(deps, args._[1])
    if (!(await resetTwoFactor(deps, user.id))) throw new Error(`${user.email} has no two-factor sign-in`)
    console.log(`two-factor sign-in of ${user.email} is off; every session was ended and the owner was emailed`)
  },
}

/** Runs against the database; 'access.changed' events go to a running server (src/realtime/relay.ts). */
export const usersCommand: Command<Deps> = {
  name: 'users',
  usage: 'dibs users list|create|set-role|grant|reset-2fa',
  summary:
    'Accounts: list · create --email E --password P [--name N] [--role R] [--confirmed] · set-role <email> <role> · grant <email> <plan> --until <date> · reset-2fa <email>',
  async run(_config, args, withContext) {
    const sub = args._[0]
    const fn = sub ? subcommands[sub] : undefined
    if (!fn) throw new UsageError(`users needs a subcommand: ${Object.keys(subcommands).join(', ')}`)
    try {
      await withContext(
        (deps) => fn(deps, args),
        () => '(signed-in browsers of this account were updated live)',
      )
    } catch (err) {
      if (err instanceof AppError) throw new Error(err.message)
      throw err
    }
  },
}
