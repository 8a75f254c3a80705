// A plain-text table for CLI listings (`dibs users list`, `dibs sources list`): columns padded to their widest
// cell, two spaces apart, no trailing blanks. Pure.
export function formatTable(header: string[], rows: string[][]): string[] {
  const table = [header, ...rows]
  const widths = header.map((_, i) => Math.max(...table.map((r) => (r[i] ?? '').length)))
  return table.map((r) =>
    r
      .map((c, i) => c.padEnd(widths[i]!))
      .join('  ')
      .trimEnd(),
  )
}
