// Background jobs as a declarative list. Each `run` is an exported function that the CLI, an
// admin button and a test can call directly; this file only wires the timing (@elysiajs/cron).
import { Elysia } from 'elysia'
import { cron, Patterns } from '@elysiajs/cron'
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

/**
 * Wires each job to @elysiajs/cron: a once-a-second cron tick runs the job when it is due
 * (its `every` may change after each run, e.g. the scanner's adaptive interval). A run never
 * overlaps itself; failures are logged, not fatal.
 */
export function startJobs(deps: Deps, jobs: Job[]): RunningJobs {
  const inFlight = new Map<string, Promise<unknown>>()
  const dueAt = new Map<string, number>()
  const delay = (job: Job) => (typeof job.every === 'function' ? job.every(deps) : job.every)
  let stopped = false

  const tick = (job: Job) => {
    if (stopped || inFlight.has(job.name) || Date.now() < (dueAt.get(job.name) ?? 0)) return
    const p = Promise.resolve()
      .then(() => job.run(deps))
      .catch((err) => log.error(`job ${job.name} failed`, { error: String(err) }))
      .finally(() => {
        inFlight.delete(job.name)
        dueAt.set(job.name, Date.now() + delay(job))
      })
    inFlight.set(job.name, p)
  }

  let scheduler = new Elysia({ name: 'jobs' }) as unknown as Elysia
  for (const job of jobs) {
    dueAt.set(job.name, job.immediate ? 0 : Date.now() + delay(job))
    scheduler = scheduler.use(cron({ name: job.name, pattern: Patterns.everySecond(), run: () => tick(job) })) as unknown as Elysia
  }
  for (const job of jobs) if (job.immediate) tick(job)
  const crons = (scheduler.store as { cron?: Record<string, { stop(): void }> }).cron ?? {}

  return {
    running: () => [...inFlight.keys()],
    async stop() {
      stopped = true
      for (const c of Object.values(crons)) c.stop()
      await Promise.allSettled(inFlight.values())
      for (const job of jobs) job.stop?.()
    },
  }
}
