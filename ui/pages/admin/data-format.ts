// Number formats of the admin Database, Trends and Alerts pages, pure (tests/unit/admin).

const UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB']

/** 0 B, 512 B, 1.5 KiB, 12 MiB … (binary units; one decimal below 10). */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return '—'
  let v = bytes
  let u = 0
  while (v >= 1024 && u < UNITS.length - 1) {
    v /= 1024
    u++
  }
  return `${u === 0 ? v : v < 10 ? v.toFixed(1) : Math.round(v)} ${UNITS[u]}`
}

/** 0.4 s, 12 s, 3 min 20 s, 2 h 5 min, 3 d 4 h; '—' when unknown. */
export function formatSeconds(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds)) return '—'
  const s = Math.max(0, seconds)
  if (s < 10) return `${Math.round(s * 10) / 10} s`
  if (s < 60) return `${Math.round(s)} s`
  const m = Math.floor(s / 60)
  if (m < 60) return `${m} min ${Math.round(s % 60)} s`
  const h = Math.floor(m / 60)
  if (h < 24) return `${h} h ${m % 60} min`
  return `${Math.floor(h / 24)} d ${h % 24} h`
}

export const formatCount = (n: number) => n.toLocaleString('en-US')

/** One line that says what a daily series shows: its total, and its busiest day. */
export function seriesSummary(labels: string[], values: (number | null)[]): string {
  const present = values.map((v, i) => [v, i] as const).filter((x): x is readonly [number, number] => x[0] !== null)
  if (present.length === 0) return 'no data'
  const total = present.reduce((sum, [v]) => sum + v, 0)
  const [max, at] = present.reduce((best, x) => (x[0] > best[0] ? x : best))
  return max === 0 ? 'none' : `${formatCount(total)} in total, most on ${labels[at]} (${formatCount(max)})`
}

/** For a measure (e.g. latency): its highest day and how many days have a value. */
export function peakSummary(format: (v: number) => string) {
  return (labels: string[], values: (number | null)[]): string => {
    const present = values.map((v, i) => [v, i] as const).filter((x): x is readonly [number, number] => x[0] !== null)
    if (present.length === 0) return 'no data'
    const [max, at] = present.reduce((best, x) => (x[0] > best[0] ? x : best))
    return `highest ${format(max)} on ${labels[at]}, ${present.length} of ${values.length} days with data`
  }
}
