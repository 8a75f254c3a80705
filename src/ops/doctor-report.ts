// How `dibs doctor` prints: one line per check (✓ ok, ! warning, ✗ failure) and, under a warning
// or a failure, the one-line fix; a summary last. Any ✗ makes the exit code 1.
export type CheckResult = { status: 'ok' | 'warn' | 'fail'; name: string; detail: string; fix?: string }

const MARK = { ok: '✓', warn: '!', fail: '✗' } as const

export function formatReport(results: CheckResult[]): { text: string; exitCode: number } {
  const lines: string[] = []
  for (const r of results) {
    lines.push(`${MARK[r.status]} ${r.name}: ${r.detail}`)
    if (r.status !== 'ok' && r.fix) lines.push(`    fix: ${r.fix}`)
  }
  const n = (s: CheckResult['status']) => results.filter((r) => r.status === s).length
  lines.push('', `doctor: ${n('ok')} ok, ${n('warn')} warning(s), ${n('fail')} failed`)
  return { text: lines.join('\n'), exitCode: n('fail') > 0 ? 1 : 0 }
}

/** Bytes as "41.2 GiB" / "512 MiB". */
export function formatBytes(bytes: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB']
  let v = bytes
  let i = 0
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024
    i++
  }
  return `${v >= 100 || i === 0 ? Math.round(v) : v.toFixed(1)} ${units[i]}`
}
