// `dibs billing sync [--reconcile]`: creates the missing Stripe prices (by lookup key) and the
// billing-portal configuration; with --reconcile also re-reads every stored subscription and fixes
// drift. Access changes reach a running server's browsers through the relay.
import type { Deps } from '../deps'
import { UsageError } from '../cli/args'
import type { Command } from '../cli/command'
import { syncCatalog, LOOKUP_KEYS } from './catalog'
import { reconcile } from './reconcile'

export const billingCommand: Command<Deps> = {
  name: 'billing',
  usage: 'dibs billing sync [--reconcile]',
  summary: 'Create missing Stripe prices and the billing-portal configuration; --reconcile re-reads every subscription and fixes drift',
  async run(config, args, withContext) {
    if (args._[0] !== 'sync') throw new UsageError('billing needs a subcommand: sync')
    if (!config.billingEnabled) throw new Error('billing is off: set STRIPE_SECRET_KEY, STRIPE_PUBLISHABLE_KEY and STRIPE_WEBHOOK_SECRET')
    return await withContext(
      async (deps) => {
        const r = await syncCatalog(deps)
        for (const [plan, key] of Object.entries(LOOKUP_KEYS))
          console.log(`${key}: ${r.prices[plan as keyof typeof r.prices]} (${r.createdPrices.includes(key) ? 'created' : 'exists'})`)
        console.log(`billing portal configuration: ${r.portalConfiguration} (${r.portal})`)
        if (args.flags.reconcile) {
          const c = await reconcile(deps)
          console.log(`reconcile: ${c.checked} checked, ${c.changed} changed, ${c.failed} failed`)
          if (c.failed > 0) return 1
        }
        return 0
      },
      (n) => `(${n} access change(s) sent to the running server)`,
    )
  },
}
