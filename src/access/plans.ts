// The three monthly plans and the trial length (spec §1, §9). Pure data: shared by the
// server (checkout, admin grants, CLI) and the browser (plan cards, trial-concluding page).
// Plan ids are the role ids they grant, so a paid plan maps 1:1 onto a role.

export type PlanId = 'product' | 'gd' | 'product+gd'

export interface Plan {
  id: PlanId
  /** Display name, e.g. 'GAFS', 'GunDeals (GD)', 'GAFS + GD'. */
  name: string
  /** Which forum the plan covers, for the card's subtitle. */
  description: string
  priceCents: number
  features: string[]
  bestValue: boolean
}

export const PLAN_IDS: readonly PlanId[] = ['product', 'gd', 'product+gd']
export const DEFAULT_PRODUCT_LABEL = 'GAFS'
export const TRIAL_DAYS = 7
const DAY_MS = 24 * 60 * 60 * 1000

export function plans(productLabel: string = DEFAULT_PRODUCT_LABEL): Plan[] {
  return [
    {
      id: 'product',
      name: productLabel,
      description: 'Accessories forum',
      priceCents: 1500,
      features: ['10 WTB terms', '10 WTS terms', 'Real-time notifications', 'Unlimited match history'],
      bestValue: false,
    },
    {
      id: 'gd',
      name: 'GunDeals (GD)',
      description: 'Deals forum',
      priceCents: 1000,
      features: ['10 deal terms', 'Instant alerts', 'Real-time notifications', 'Unlimited history'],
      bestValue: false,
    },
    {
      id: 'product+gd',
      name: `${productLabel} + GD`,
      description: 'Both forums',
      priceCents: 2000,
      features: ['10 WTS, 10 WTB and 10 deal terms', 'Both forums in one plan', 'Real-time notifications', 'Saves $5'],
      bestValue: true,
    },
  ]
}

export function planById(id: PlanId, productLabel: string = DEFAULT_PRODUCT_LABEL): Plan {
  return plans(productLabel).find((p) => p.id === id)!
}

export function isPlanId(value: unknown): value is PlanId {
  return typeof value === 'string' && (PLAN_IDS as readonly string[]).includes(value)
}

/** '$15' for 1500; cents shown only when there are any ('$9.99'). */
export function formatPrice(cents: number): string {
  return cents % 100 === 0 ? `$${cents / 100}` : `$${(cents / 100).toFixed(2)}`
}

/** One line per plan on the 'trial is concluding' page: 'GAFS + GD — $20/month'. */
export function planLine(plan: Plan): string {
  return `${plan.name} — ${formatPrice(plan.priceCents)}/month`
}

/** When a trial that starts at `from` (email confirmation) ends. */
export function trialEndsAt(from: Date): Date {
  return new Date(from.getTime() + TRIAL_DAYS * DAY_MS)
}

// Whitespace is dropped and the usual joiners ('&', ',', '_', '-', 'and') become '+', so
// 'GAFS + GD', 'gafs&gd' and 'gd-gafs' all read as the bundle.
function normalise(text: string): string {
  return text
    .toLowerCase()
    .replace(/\s+and\s+/g, '+')
    .replace(/\s+/g, '')
    .replace(/[&,_-]/g, '+')
}

/**
 * Reads a plan from user or operator input (checkout planType, CLI, admin form):
 * 'product' or the product label ('gafs'); 'gd', 'gundeals', 'deals'; 'bundle', 'both', 'all',
 * 'product+gd', 'gafs+gd' (either order). Unknown text gives null.
 */
export function parsePlanId(text: string, productLabel: string = DEFAULT_PRODUCT_LABEL): PlanId | null {
  const t = normalise(text)
  if (t === '') return null
  const product = new Set(['product', normalise(productLabel)])
  const gd = new Set(['gd', 'gundeals', 'gundeals(gd)', 'deals'])
  if (product.has(t)) return 'product'
  if (gd.has(t)) return 'gd'
  if (['bundle', 'both', 'all'].includes(t)) return 'product+gd'
  // Compared as whole strings (not split on '+') so a label that itself holds a joiner still works.
  for (const p of product) {
    for (const g of gd) {
      if (t === `${p}+${g}` || t === `${g}+${p}` || t === `${p}${g}`) return 'product+gd'
    }
  }
  return null
}
