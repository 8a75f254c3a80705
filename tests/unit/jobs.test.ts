import { describe, expect, test } from 'bun:test'
import { startJobs } from '../../src/jobs/schedule'
import type { Job } from '../../src/jobs/types'
import { fakeTimers, makeDeps, testClock } from '../helpers'

test('jobs run on the cron tick when due, never overlap themselves, and stop cleanly', async () => {
  const deps = makeDeps()
  let runs = 0
  let concurrent = 0
  let maxConcurrent = 0
  const slow: Job = {
    name: 'slow',
    every: 0,
    immediate: true,
    async run() {
      runs++
      concurrent++
      maxConcurrent = Math.max(maxConcurrent, concurrent)
      await Bun.sleep(1500)
      concurrent--
    },
  }
  let failing = 0
  const broken: Job = {
    name: 'broken',
    every: 0,
    immediate: true,
    run: () => {
      failing++
      throw new Error('boom')
    },
  }
  let stopped = false
  const later: Job = { name: 'later', every: 60_000, run: () => {}, stop: () => void (stopped = true) }
  const jobs = startJobs(deps, [slow, broken, later])
  await Bun.sleep(2600)
  await jobs.stop()
  expect(runs).toBeGreaterThanOrEqual(1)
  expect(runs).toBeLessThanOrEqual(2)
  expect(maxConcurrent).toBe(1)
  expect(failing).toBeGreaterThanOrEqual(2) // a failing run is logged and the job keeps its schedule
  expect(stopped).toBe(true)
  const after = runs
  await Bun.sleep(1200)
  expect(runs).toBe(after)
  deps.close()
}, 15_000)

describe('a precisely timed job (the scanner) runs on its own timer', () => {
  const T0 = 1_763_640_000_000

  test('a 2 s interval starts every 2 s to the millisecond, not on the next whole-second tick', async () => {
    const t = fakeTimers(testClock(T0))
    const deps = makeDeps({}, t.clock)
    const starts: number[] = []
    const job: Job = {
      name: 'precise',
      immediate: true,
      nextAt: (_, last) => last.startedAt + 2000,
      run: () => {
        starts.push(t.now() - T0)
        t.clock.advance(300) // the run itself takes time: the cadence counts from its start
      },
    }
    const jobs = startJobs(deps, [job], t)
    await t.advanceTo(T0 + 10_000)
    await jobs.stop()
    expect(starts).toEqual([0, 2000, 4000, 6000, 8000, 10_000])
    deps.close()
  })

  test('a nextAt that answers a promise (the scan reads the emergency pause from the database) is awaited', async () => {
    const t = fakeTimers(testClock(T0))
    const deps = makeDeps({}, t.clock)
    const starts: number[] = []
    const job: Job = {
      name: 'precise-async',
      immediate: true,
      nextAt: async (_, last) => {
        await Promise.resolve()
        return last.startedAt + 2000
      },
      run: () => void starts.push(t.now() - T0),
    }
    const jobs = startJobs(deps, [job], t)
    await t.advanceTo(T0 + 6000)
    await jobs.stop()
    expect(starts).toEqual([0, 2000, 4000, 6000])
    deps.close()
  })

  test('when the timer fires it asks again: a run moved later meanwhile waits for the new time', async () => {
    const t = fakeTimers(testClock(T0))
    const deps = makeDeps({}, t.clock)
    const starts: number[] = []
    let notBefore = 0
    const job: Job = { name: 'precise', immediate: true, nextAt: (_, last) => Math.max(last.startedAt + 2000, notBefore), run: () => starts.push(t.now() - T0) }
    const jobs = startJobs(deps, [job], t)
    await t.advanceTo(T0 + 1000)
    notBefore = T0 + 3500 // e.g. an admin's scan spent the budget after the timer was armed for T0 + 2 s
    await t.advanceTo(T0 + 6000)
    await jobs.stop()
    expect(starts).toEqual([0, 3500, 5500])
    deps.close()
  })

  test('a run longer than the interval is followed at its end, never overlapped; a failure is logged and the loop goes on', async () => {
    const t = fakeTimers(testClock(T0))
    const deps = makeDeps({}, t.clock)
    const starts: number[] = []
    let started = 0
    const job: Job = {
      name: 'slow',
      immediate: true,
      nextAt: (_, last) => last.startedAt + 2000,
      async run() {
        starts.push(t.now() - T0)
        t.clock.advance(3000)
        if (++started === 2) throw new Error('boom')
      },
    }
    const jobs = startJobs(deps, [job], t)
    await t.advanceTo(T0 + 9000)
    await jobs.stop()
    expect(starts).toEqual([0, 3000, 6000, 9000])
    expect(t.pending()).toBe(0) // stop() cancelled the armed timer
    deps.close()
  })

  test('on the real clock the loop re-arms itself, calls start once, and stop() ends it', async () => {
    const deps = makeDeps({}, { ...testClock(), now: () => new Date() })
    let runs = 0
    let starts = 0
    const job: Job = { name: 'fast', nextAt: (_, last) => last.endedAt + 20, run: () => void runs++, start: () => void starts++ }
    const jobs = startJobs(deps, [job])
    await Bun.sleep(600)
    await jobs.stop()
    expect(runs).toBeGreaterThanOrEqual(3) // about 25; only a lower bound, so a busy machine cannot flake it
    expect(starts).toBe(1)
    const after = runs
    await Bun.sleep(200)
    expect(runs).toBe(after)
    deps.close()
  })
})
