// The spec's scan-frequency figures (§1 "a scan-frequency helper says every 20 seconds"; §9 "Scan
// frequency by tier (displayed): pro 1 minute, paid 5, free 10, guest 15"), each shown beside what
// Dibs really does: one scanner for everyone, at the cadence in force (GET /api/config
// scanIntervalSeconds: Reddit's rate budget, or SCAN_INTERVAL_SECONDS).

export const HELPER_SECONDS = 20

/** The displayed tiers of the spec's admin scan panel. */
export const SCAN_TIERS = [
  { tier: 'Pro', every: '1 minute' },
  { tier: 'Paid', every: '5 minutes' },
  { tier: 'Free', every: '10 minutes' },
  { tier: 'Guest', every: '15 minutes' },
] as const

/** '7.5 s', '10 s', '1 min 30 s' */
export function cadence(seconds: number): string {
  if (seconds < 60) return `${+seconds.toFixed(1)} s`
  const m = Math.floor(seconds / 60)
  const s = Math.round(seconds % 60)
  return s ? `${m} min ${s} s` : `${m} min`
}

/** The search-terms dialog's helper: the spec's 'every 20 seconds', and the cadence in force beside it. */
export function scanHelperText(seconds: number | undefined): string {
  const spec = `Scan frequency: every ${HELPER_SECONDS} seconds`
  if (seconds === undefined) return `${spec}.`
  if (seconds <= HELPER_SECONDS) return `${spec} or faster — right now Dibs checks the forums every ${cadence(seconds)}.`
  return `${spec} is the usual figure; right now Dibs checks the forums every ${cadence(seconds)} (Reddit's rate limit or the administrator's setting).`
}

/** Beside the tier table: Dibs does not scan by tier. */
export function tierNote(seconds: number | undefined): string {
  const now = seconds === undefined ? '' : `, every ${cadence(seconds)} right now`
  return `As displayed by the spec. Dibs does not scan by tier: each scan reads every forum once and matches every account's terms at the same time${now}.`
}
