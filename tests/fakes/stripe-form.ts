// Stripe's request encoding, read back: `application/x-www-form-urlencoded` bodies and query
// strings with bracketed keys as stripe-node writes them (qs, indices): `a[b]=1`,
// `line_items[0][price]=p`, `expand[0]=data.product`, `lookup_keys[]=k`. Objects whose keys are
// all indices become arrays.
export type FormValue = string | FormValue[] | { [k: string]: FormValue }

export function parseStripeForm(text: string): Record<string, FormValue> {
  const root: Record<string, any> = {}
  for (const [rawKey, value] of new URLSearchParams(text)) {
    const head = /^[^[]+/.exec(rawKey)?.[0] ?? rawKey
    const rest = [...rawKey.slice(head.length).matchAll(/\[([^\]]*)\]/g)].map((m) => m[1]!)
    const keys = [head, ...rest]
    let node: Record<string, any> = root
    for (let i = 0; i < keys.length; i++) {
      let key = keys[i]!
      const last = i === keys.length - 1
      if (key === '') key = String(Object.keys(node).length) // `[]`: append
      if (last) node[key] = value
      else node = node[key] ??= {}
    }
  }
  return arrays(root) as Record<string, FormValue>
}

function arrays(node: unknown): unknown {
  if (node === null || typeof node !== 'object') return node
  const obj = node as Record<string, unknown>
  const keys = Object.keys(obj)
  for (const k of keys) obj[k] = arrays(obj[k])
  if (keys.length > 0 && keys.every((k) => /^\d+$/.test(k)))
    return keys
      .map(Number)
      .sort((a, b) => a - b)
      .map((k) => obj[String(k)])
  return obj
}

export function list(value: FormValue | undefined): string[] {
  if (value === undefined) return []
  if (Array.isArray(value)) return value.map(String)
  if (typeof value === 'object') return Object.values(value).map(String)
  return [value]
}
