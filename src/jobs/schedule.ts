// Wires each job of the list (src/services.ts) to @elysiajs/cron: a once-a-second cron tick runs
// the job when it is due (its `every` may change after each run, e.g. the scanner's adaptive
// interval). A run never overlaps itself; failures are logged, not fatal.
import { Elysia } from 'elysia'
import { cron, Patterns } from '@elysiajs/cron'
import type { Deps } from '../deps'
import { log } from '../lib/log'
import { isStorageFull, noteStorageFull } from '../lib/storage'
import type { Job } from './types'

export type RunningJobs = { stop(): Promise<void>; running(): string[] }

export function startJobs(deps: Deps, jobs: Job[]): RunningJobs {
  const inFlight = new Map<string, Promise<unknown>>()
  const dueAt = new Map<string, number>()
  const delay = (job: Job) => (typeof job.every === 'function' ? job.every(deps) : job.every)
  let stopped = false

  const tick = (job: Job) => {
    if (stopped || inFlight.has(job.name) || Date.now() < (dueAt.get(job.name) ?? 0)) return
    const p = Promise.resolve()
      .then(() => job.run(deps))
      .catch((err) => {
        if (isStorageFull(err)) noteStorageFull(deps.sqlite, Date.now(), err) // /healthz reports it
        log.error(`job ${job.name} failed`, { error: String(err) })
      })
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
