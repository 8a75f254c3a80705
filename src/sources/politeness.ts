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

export class HostPoliteness {
  readonly intervalMs: number
  private readonly next = new Map<string, number>()

  constructor(
    private readonly now: () => number,
    intervalMs = DEFAULT_FEED_INTERVAL_MS,
  ) {
    this.intervalMs = Math.max(MIN_FEED_INTERVAL_MS, Number.isFinite(intervalMs) ? intervalMs : DEFAULT_FEED_INTERVAL_MS)
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
    this.later(urlOrHost, this.now() + this.intervalMs)
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
