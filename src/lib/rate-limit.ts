// Fixed-window counters in memory, keyed by e.g. "login:ip:1.2.3.4". Good enough for one process.
export class RateLimiter {
  private hits = new Map<string, { count: number; resetAt: number }>()
  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Counts a hit; returns the seconds to wait when over the limit, else 0. */
  hit(key: string): number {
    const t = this.now()
    let entry = this.hits.get(key)
    if (!entry || entry.resetAt <= t) {
      entry = { count: 0, resetAt: t + this.windowMs }
      this.hits.set(key, entry)
      if (this.hits.size > 10_000) this.sweep(t)
    }
    entry.count++
    return entry.count > this.limit ? Math.ceil((entry.resetAt - t) / 1000) : 0
  }

  /** Seconds to wait without counting a hit. */
  check(key: string): number {
    const entry = this.hits.get(key)
    const t = this.now()
    return entry && entry.resetAt > t && entry.count >= this.limit ? Math.ceil((entry.resetAt - t) / 1000) : 0
  }

  /** Takes back one counted hit (an attempt reserved before it was known to succeed). */
  release(key: string) {
    const entry = this.hits.get(key)
    if (entry && entry.count > 0) entry.count--
  }

  reset(key: string) {
    this.hits.delete(key)
  }

  private sweep(t: number) {
    for (const [k, v] of this.hits) if (v.resetAt <= t) this.hits.delete(k)
  }
}

/** How many operations per key run at once (e.g. password verifications per account). */
export class ConcurrencyLimit {
  private running = new Map<string, number>()
  constructor(private readonly max: number) {}

  /** Takes a slot; false when the key already has `max` running. */
  enter(key: string): boolean {
    const n = this.running.get(key) ?? 0
    if (n >= this.max) return false
    this.running.set(key, n + 1)
    return true
  }

  leave(key: string) {
    const n = (this.running.get(key) ?? 1) - 1
    if (n <= 0) this.running.delete(key)
    else this.running.set(key, n)
  }
}
