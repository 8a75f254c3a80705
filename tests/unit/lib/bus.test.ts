// The process's event bus (src/lib/bus.ts): listeners in order, a failing one (thrown or rejected)
// reported and never stopping the others.
import { expect, spyOn, test } from 'bun:test'
import { EventBus } from '../../../src/lib/bus'

test('a listener that throws or rejects is reported; the others still run, in order', async () => {
  const bus = new EventBus<{ hit: number }>()
  const seen: string[] = []
  const report = spyOn(console, 'error').mockImplementation(() => {})
  try {
    bus.on('hit', (n) => void seen.push(`a${n}`))
    bus.on('hit', () => {
      throw new Error('sync failure')
    })
    bus.on('hit', async (n) => {
      seen.push(`b${n}`)
      await Promise.resolve()
      throw new Error('async failure')
    })
    const off = bus.on('hit', (n) => void seen.push(`c${n}`))
    bus.emit('hit', 1)
    off()
    bus.emit('hit', 2)
    await Bun.sleep(0)
    expect(seen).toEqual(['a1', 'b1', 'c1', 'a2', 'b2'])
    expect(report.mock.calls.map((c) => String(c[1]))).toEqual(['Error: sync failure', 'Error: sync failure', 'Error: async failure', 'Error: async failure'])
  } finally {
    report.mockRestore()
  }
})
