// Scanner wiring: the scan job (adaptive delay from the rate budget), the term index preloaded at
// startup, and the demo seed under DEMO=1. The job's `run` is runScan, also exported for the CLI,
// admin buttons and tests.
import type { Deps } from '../deps'
import { seedDemo } from '../demo/seed'
import { SCAN_JOB } from '../health'
import type { Job } from '../jobs'
import { log } from '../lib/log'
import { matcherFor } from '../matching/service'
import { runScan, scanDelayMs } from './scan'

export { runScan, scanDelayMs } from './scan'
export { createScanSource, scanSourceFor, setScanSource } from './source'

export function scannerJobs(deps: Deps): Job[] {
  matcherFor(deps) // load the term index now rather than on the first post
  if (deps.config.demo) seedDemo(deps).catch((err) => log.error('demo seed failed', { error: String(err) }))
  return [{ name: SCAN_JOB, every: (d) => scanDelayMs(d), run: (d) => runScan(d), immediate: true }]
}
