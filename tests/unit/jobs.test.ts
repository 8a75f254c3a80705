import { expect, test } from 'bun:test'
import { startJobs } from '../../src/jobs/schedule'
import type { Job } from '../../src/jobs/types'
import { makeDeps } from '../helpers'

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
