// How often one host may be asked for a feed: at most once per interval (60 s by default, never
// below 15 s, whatever an admin sets), and not before a Retry-After it sent. Per host, not per feed:
// five boards of one forum share the forum's patience. Pure; the clock is injected.
export const DEFAULT_FEED_INTERVAL_MS = 60_000
export const MIN_FEED_INTERVAL_MS = 15_000

/** The host part of a URL (or a host as given), lower-case: the key politeness is counted by. */
export function hostKey(urlOrHost: string): string {
  try {
    return new URL(urlOrHost).hostname.toLowerCase()
  } catch {
    return urlOrHost.toLowerCase()
  }
}

/** An interval as an admin may set it: at least 15 s; anything unreadable is the default. */
export const politeInterval = (ms: number) => Math.max(MIN_FEED_INTERVAL_MS, Number.isFinite(ms) ? ms : DEFAULT_FEED_INTERVAL_MS)

export class HostPoliteness {
  private interval: number
  private readonly next = new Map<string, number>()

  constructor(
    private readonly now: () => number,
    intervalMs = DEFAULT_FEED_INTERVAL_MS,
  ) {
    this.interval = politeInterval(intervalMs)
  }

  get intervalMs(): number {
    return this.interval
  }

  /** The admin changed the interval: it counts from the next fetch (never below 15 s). */
  setInterval(ms: number): void {
    this.interval = politeInterval(ms)
  }

  /** When the host may next be fetched (now or earlier: at once). */
  nextAt(urlOrHost: string): number {
    return this.next.get(hostKey(urlOrHost)) ?? this.now()
  }

  mayFetch(urlOrHost: string): boolean {
    return this.nextAt(urlOrHost) <= this.now()
  }

  /** Call as a fetch starts: the host rests for the interval from now. */
  fetched(urlOrHost: string): void {
    this.later(urlOrHost, this.now() + this.interval)
  }

  /** The host asked for a pause (429 Retry-After, 503): never earlier than it asked. */
  deferUntil(urlOrHost: string, at: number): void {
    this.later(urlOrHost, at)
  }

  private later(urlOrHost: string, at: number): void {
    const key = hostKey(urlOrHost)
    this.next.set(key, Math.max(this.next.get(key) ?? 0, at))
  }
}
