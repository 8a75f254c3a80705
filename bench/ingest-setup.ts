// Shared set-up of the ingest benchmarks (bench/ingest.ts, bench/ingest-browser.ts): options,
// percentiles, subscribers with realistic terms written straight into SQLite, and a Reddit client
// that notes when each listing body has arrived (the start of the measured path).
import type { Deps, SqliteDeps } from '../src/deps'
import { RateBudget } from '../src/forums/rate-budget'
import { RedditClient } from '../src/forums/reddit-client'
import { makeTerm, rng } from './vocabulary'

export const TARGET_P95_MS = 50

export function benchOptions<T extends Record<string, number>>(defaults: T): T {
  const args = process.argv.slice(2)
  const out = { ...defaults }
  for (const name of Object.keys(defaults) as (keyof T & string)[]) {
    const i = args.indexOf(`--${name}`)
    if (i >= 0) out[name] = Number(args[i + 1]) as T[typeof name]
  }
  return out
}

export const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? NaN

/** U subscribers with the bundle plan and T terms each (created an hour ago, so new posts alert). */
/** Returns the user ids and the seeded generator, which the bench goes on using for its posts. */
export function seedSubscribers(deps: SqliteDeps, o: { users: number; terms: number; seed: number }) {
  const r = rng(o.seed)
  const termStart = Date.now() - 3600_000
  const ids: number[] = []
  deps.sqlite.transaction(() => {
    const user = deps.sqlite.query<{ id: number }, [string]>("INSERT INTO users (email, name, email_confirmed_at) VALUES (?, 'Bench', 1) RETURNING id")
    const access = deps.sqlite.query("INSERT INTO user_access (user_id, role, subscription_status) VALUES (?, 'product+gd', 'active')")
    const term = deps.sqlite.query('INSERT OR IGNORE INTO search_terms (user_id, category, term, created_at) VALUES (?, ?, ?, ?)')
    for (let u = 0; u < o.users; u++) {
      const id = user.get(`bench${u}@example.com`)!.id
      ids.push(id)
      access.run(id)
      for (let k = 0; k < o.terms; k++) term.run(id, (['wts', 'wtb', 'gd'] as const)[k % 3], makeTerm(r), termStart)
    }
  })()
  return { ids, r }
}

/** A Reddit client for the fake whose `receivedAt()` is the clock reading when the last listing body arrived. */
export function timedRedditClient(baseUrl: string, deps: Deps, label: string, clock: () => number) {
  let receivedAt = 0
  const client = new RedditClient({
    baseUrl,
    userAgent: `linux:dibs:bench (${label})`,
    subreddits: [deps.config.forums.accessories, deps.config.forums.deals],
    budget: new RateBudget({ capPerMinute: 1_000_000 }),
    fetch: (async (input: RequestInfo | URL, init?: RequestInit) => {
      const res = await fetch(input, init)
      const text = await res.text()
      receivedAt = clock()
      return new Response(text, { status: res.status, headers: res.headers })
    }) as typeof fetch,
  })
  return { client, receivedAt: () => receivedAt }
}
