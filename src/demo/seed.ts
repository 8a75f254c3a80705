// DEMO=1: a demo admin and a demo subscriber with terms that the sample corpus will hit, so a
// newcomer offline sees the live feed and matches arrive. Idempotent: existing accounts are kept.
// The subscriber keeps the default email frequency, the batched digest: a demo post arrives every
// few seconds, and one email per match flooded the demo inbox (about two a minute).
import type { AccessState } from '../access/rules'
import type { Category } from '../access/categories'
import type { Deps } from '../deps'
import type { WithMatcher } from '../matches/matcher'
import { log } from '../lib/log'
import { addTerm } from '../terms/service'
import { findUserByEmail } from '../auth/service'
import { insertUser } from '../auth/users'
import { insertActiveAccess } from '../access/accounts'

export const DEMO_PASSWORD = 'dibs-demo-password'
export const DEMO_ACCOUNTS = [
  { email: 'admin@demo.dibs.local', name: 'Demo Admin', role: 'admin' as const },
  { email: 'subscriber@demo.dibs.local', name: 'Demo Subscriber', role: 'product+gd' as const },
]
const DEMO_TERMS: Record<Category, string[]> = {
  wts: ['aimpoint', 'trijicon rmr | sro', 'holosun 5*', 'surefire x300*', 'pmag', 'eotech -magnifier'],
  wtb: ['aimpoint | eotech', 'rmr', 'holster'],
  gd: ['holosun <$300', 'pmag*', 'surefire', 'primary arms'],
}

export async function seedDemo(deps: Deps & WithMatcher): Promise<void> {
  const hash = await Bun.password.hash(DEMO_PASSWORD)
  const now = deps.now().getTime()
  for (const account of DEMO_ACCOUNTS) {
    if ((await findUserByEmail(deps, account.email)) !== undefined) continue
    const userId = await insertUser(deps, { email: account.email, name: account.name, passwordHash: hash, emailConfirmedAtMs: now, createdAtMs: now })
    await insertActiveAccess(deps, userId, account.role, 'demo', now)
    if (account.role !== 'admin') {
      const access: AccessState = { role: account.role, subscriptionStatus: 'active', accessExpiresAt: null }
      for (const [category, terms] of Object.entries(DEMO_TERMS) as [Category, string[]][])
        for (const term of terms) await addTerm(deps, userId, access, category, term)
    }
  }
  const lines = DEMO_ACCOUNTS.map((a) => `  ${a.role === 'admin' ? 'admin     ' : 'subscriber'}  ${a.email}  /  ${DEMO_PASSWORD}`)
  const banner = ['', `Demo forum running (DEMO=1): a new sample post arrives every few seconds.`, `Sign in at ${deps.config.appUrl}/login with:`, ...lines, '']
  if (deps.config.logLevel !== 'silent') console.log(banner.join('\n'))
  log.info('demo accounts ready', { accounts: DEMO_ACCOUNTS.length })
}
