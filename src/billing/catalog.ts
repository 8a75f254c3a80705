// Prices and the billing-portal configuration, kept in Stripe without dashboard clicking. Each
// plan is one Product + monthly USD Price found by its lookup key; amounts come from
// src/access/plans.ts (one source). A sync creates what is missing and nothing else: an existing
// price with the right amount is reused, so running it again never makes a second price for a
// key; a changed amount (or a price archived in the dashboard) makes a new price on the same
// product that takes the key over (transfer_lookup_key), and subscribers on the old price keep it
// until they change plan. The portal configuration (marked
// metadata.dibs = '1') allows cancel at period end, card update, invoice history and switching
// between the three plans.
import type Stripe from 'stripe'
import type { Deps } from '../deps'
import { plans, type PlanId } from '../access/plans'
import { stripeFor } from './client'

export const LOOKUP_KEYS: Record<PlanId, string> = {
  product: 'dibs_product_monthly',
  gd: 'dibs_gd_monthly',
  'product+gd': 'dibs_bundle_monthly',
}

export function planForLookupKey(key: string | null | undefined): PlanId | null {
  const hit = Object.entries(LOOKUP_KEYS).find(([, k]) => k === key)
  return hit ? (hit[0] as PlanId) : null
}

export type Catalog = { prices: Record<PlanId, string>; products: Record<PlanId, string>; portalConfiguration: string }
export type SyncResult = Catalog & { createdPrices: string[]; portal: 'created' | 'updated' }

/** The last synced catalog per Stripe account (key + API base); checkout and portal read it. */
const synced = new Map<string, Catalog>()
const catalogKey = (deps: Pick<Deps, 'config'>) => `${deps.config.stripe.secretKey}@${deps.config.stripe.apiBase ?? ''}`

export function cachedCatalog(deps: Pick<Deps, 'config'>): Catalog | null {
  return synced.get(catalogKey(deps)) ?? null
}

const productId = (p: Stripe.Price['product']) => (typeof p === 'string' ? p : p.id)

export async function syncCatalog(deps: Pick<Deps, 'config'>): Promise<SyncResult> {
  const stripe = stripeFor(deps.config)
  const { appName, appUrl, productName } = deps.config
  const existing = await stripe.prices.list({ lookup_keys: Object.values(LOOKUP_KEYS), active: true, limit: 10 })
  const prices = {} as Record<PlanId, string>
  const products = {} as Record<PlanId, string>
  const createdPrices: string[] = []
  let ourProducts: Stripe.Product[] | undefined
  for (const plan of plans(productName)) {
    const key = LOOKUP_KEYS[plan.id]
    const found = existing.data.find((p) => p.lookup_key === key)
    if (found && found.unit_amount === plan.priceCents && found.currency === 'usd' && found.recurring?.interval === 'month') {
      prices[plan.id] = found.id
      products[plan.id] = productId(found.product)
      continue
    }
    // The product: the key holder's, else one of ours from an earlier sync (its price archived), else a new one.
    ourProducts ??= (await stripe.products.list({ active: true, limit: 100 })).data.filter((p) => p.metadata?.dibs_plan)
    const product = found
      ? productId(found.product)
      : (ourProducts.find((p) => p.metadata.dibs_plan === plan.id)?.id ??
        (await stripe.products.create({ name: `${appName} ${plan.name}`, metadata: { dibs_plan: plan.id } })).id)
    const price = await stripe.prices.create({
      product,
      currency: 'usd',
      unit_amount: plan.priceCents,
      recurring: { interval: 'month' },
      lookup_key: key,
      // an archived price may still hold the key: take it over
      transfer_lookup_key: true,
      metadata: { dibs_plan: plan.id },
    })
    prices[plan.id] = price.id
    products[plan.id] = product
    createdPrices.push(key)
  }

  const features: Stripe.BillingPortal.ConfigurationCreateParams.Features = {
    customer_update: { enabled: true, allowed_updates: ['email', 'address'] },
    invoice_history: { enabled: true },
    payment_method_update: { enabled: true },
    subscription_cancel: { enabled: true, mode: 'at_period_end' },
    subscription_update: {
      enabled: true,
      default_allowed_updates: ['price'],
      proration_behavior: 'create_prorations',
      products: (Object.keys(prices) as PlanId[]).map((id) => ({ product: products[id], prices: [prices[id]] })),
    },
  }
  const body = { features, default_return_url: `${appUrl}/dashboard/subscription`, metadata: { dibs: '1' } }
  const configs = await stripe.billingPortal.configurations.list({ active: true, limit: 100 })
  const ours = configs.data.find((c) => c.metadata?.dibs === '1')
  const portalConfiguration = ours
    ? (await stripe.billingPortal.configurations.update(ours.id, body)).id
    : (await stripe.billingPortal.configurations.create(body)).id

  const catalog: Catalog = { prices, products, portalConfiguration }
  synced.set(catalogKey(deps), catalog)
  return { ...catalog, createdPrices, portal: ours ? 'updated' : 'created' }
}

/** The catalog, synced now when this process has not yet (checkout before the startup sync finished). */
export async function catalog(deps: Pick<Deps, 'config'>): Promise<Catalog> {
  return cachedCatalog(deps) ?? (await syncCatalog(deps))
}
