// The three match categories of the spec: wts and wtb posts of the accessories forum, gd posts of
// the deals forum. Declared once here (a pure leaf: the contract, the server and the UI import it).
export type Category = 'wts' | 'wtb' | 'gd'

export const CATEGORIES: readonly Category[] = ['wts', 'wtb', 'gd']

export function isCategory(value: unknown): value is Category {
  return typeof value === 'string' && (CATEGORIES as readonly string[]).includes(value)
}
