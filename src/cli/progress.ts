// Progress of a long CLI operation (backup, restore, batch match, backfill, archive) on a terminal:
// one line on stderr, rewritten in place with \r — a bar and a percentage when the step says how
// far it is ("matched 400/1200 posts" or done/total given), its text otherwise. Only when stderr is
// a TTY: piped output, logs and tests see nothing of it, so stdout keeps just the result lines.
export type Progress = {
  /** `text` is shown as is; the fraction comes from done/total, or from an "a/b" in the text */
  update(text: string, done?: number, total?: number): void
  /** clears the line (the caller prints its result after) */
  end(): void
}

type Out = { isTTY?: boolean; columns?: number; write(s: string): unknown }

const WIDTH = 20
/** At most this often a line is redrawn (a fast loop would spend its time painting). */
const EVERY_MS = 100

/** The line for a step: "label [######--------------]  30% text" (pure; used by tests). */
export function progressLine(label: string, text: string, done?: number, total?: number): string {
  if (done === undefined || total === undefined) {
    const m = /(\d+)\/(\d+)/.exec(text)
    if (m) [done, total] = [Number(m[1]), Number(m[2])]
  }
  if (done === undefined || total === undefined || total <= 0) return `${label}: ${text}`
  const f = Math.min(1, Math.max(0, done / total))
  const full = Math.round(f * WIDTH)
  return `${label} [${'#'.repeat(full)}${'-'.repeat(WIDTH - full)}] ${String(Math.floor(f * 100)).padStart(3)}% ${text}`
}

export function progress(label: string, out: Out = process.stderr, now: () => number = Date.now): Progress {
  if (!out.isTTY) return { update() {}, end() {} }
  let last = 0
  let drawn = false
  return {
    update(text, done, total) {
      const t = now()
      const final = done !== undefined && done === total
      if (!final && drawn && t - last < EVERY_MS) return
      last = t
      drawn = true
      const line = progressLine(label, text, done, total).slice(0, Math.max(20, (out.columns || 80) - 1))
      out.write(`\r\x1b[K${line}`)
    },
    end() {
      if (drawn) out.write('\r\x1b[K')
      drawn = false
    },
  }
}
