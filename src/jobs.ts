// Background jobs as a declarative list. Each `run` is an exported function that the CLI, an
// admin button and a test can call directly; this file only wires the timing.
import type { Deps } from './deps'
import { log } from './lib/log'
import { scannerJobs } from './scanner'
import { notifyJobs } from './notify/jobs'
import { authJobs } from './auth/jobs'

export type Job = {
  name: string
  /** milliseconds between runs, or a function deciding the next delay after each run */
  every: number | ((deps: Deps) => number)
  run: (deps: Deps) => Promise<unknown> | unknown
  /** start right away instead of after the first interval */
  immediate?: boolean
  /** called once when the jobs stop (e.g. to release a listener or a connection pool) */
  stop?: () => void
}

/** Capabilities append their jobs here (scanner, notifier outbox, digests, trial reminders…). */
export function jobList(deps: Deps): Job[] {
  return [...scannerJobs(deps), ...notifyJobs(deps), ...authJobs()]
}

export type RunningJobs = { stop(): Promise<void>; running(): string[] }

/** Runs each job on its own timer; a run never overlaps itself; failures are logged, not fatal. */
export function startJobs(deps: Deps, jobs: Job[]): RunningJobs {
  const timers = new Map<string, ReturnType<typeof setTimeout>>()
  const inFlight = new Map<string, Promise<unknown>>()
  let stopped = false

  const schedule = (job: Job, delay: number) => {
    if (stopped) return
    timers.set(
      job.name,
      setTimeout(async () => {
        const p = Promise.resolve()
          .then(() => job.run(deps))
          .catch((err) => log.error(`job ${job.name} failed`, { error: String(err) }))
        inFlight.set(job.name, p)
        await p
        inFlight.delete(job.name)
        schedule(job, typeof job.every === 'function' ? job.every(deps) : job.every)
      }, delay),
    )
  }
  for (const job of jobs) schedule(job, job.immediate ? 0 : typeof job.every === 'function' ? job.every(deps) : job.every)

  return {
    running: () => [...inFlight.keys()],
    async stop() {
      stopped = true
      for (const t of timers.values()) clearTimeout(t)
      await Promise.allSettled(inFlight.values())
      for (const job of jobs) job.stop?.()
    },
  }
}
