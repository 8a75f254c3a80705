// The one percentile (nearest rank), used by the admin charts, the dashboard and the alert latency stages.
import { describe, expect, test } from 'bun:test'
import { percentile } from '../../../src/lib/percentile'

describe('percentile (nearest rank)', () => {
  const table: [number[], number, number | null][] = [
    [[], 50, null],
    [[7], 50, 7],
    [[7], 95, 7],
    [[1, 2], 50, 1],
    [[1, 2, 3, 4], 50, 2],
    [[1, 2, 3, 4, 5], 50, 3],
    [Array.from({ length: 100 }, (_, i) => i + 1), 95, 95],
    [Array.from({ length: 20 }, (_, i) => i + 1), 95, 19],
    [Array.from({ length: 20 }, (_, i) => i + 1), 50, 10],
    [Array.from({ length: 19 }, (_, i) => i + 1), 95, 19],
    [[1, 2, 3], 0, 1],
    [[1, 2, 3], 100, 3],
  ]
  for (const [values, p, expected] of table)
    test(`p${p} of [${values.length > 6 ? `1…${values.length}` : values}] = ${expected}`, () => expect(percentile(values, p)).toBe(expected))

  test('values in any order: the same answer as sorted, and the input is left as it was', () => {
    const values = [40, 10, 30, 20, 50, 5]
    expect(percentile(values, 50)).toBe(20)
    expect(percentile(values, 95)).toBe(50)
    expect(percentile([4, 3, 2, 1], 95)).toBe(4)
    expect(percentile([9, 1, 5], 0)).toBe(1)
    expect(values).toEqual([40, 10, 30, 20, 50, 5])
  })

  test('numbers sort as numbers, not as text', () => expect(percentile([100, 9, 20], 50)).toBe(20))
})
