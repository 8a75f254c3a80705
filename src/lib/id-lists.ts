// Long id lists in SQL: SQLite caps the parameters of one statement, so a list is read a slice at a
// time (`chunksOf`), each slice as `IN (?, ?, …)` (`placeholders`). Every owner's "rows of these ids"
// read goes through here.

/** The slices of `items`, `size` at a time (500: well under SQLite's parameter limit). */
export function* chunksOf<T>(items: readonly T[], size = 500): Generator<T[]> {
  for (let i = 0; i < items.length; i += size) yield items.slice(i, i + size)
}

/** `?,?,…` for `n` parameters. */
export const placeholders = (n: number) => Array.from({ length: n }, () => '?').join(',')
