// Wires each job of the list (src/services.ts) to its timer. A run never overlaps itself;
// failures are logged, not fatal.
//   - `every` jobs (the periodic ones) ride @elysiajs/cron: a once-a-second tick runs the job when
//     it is due (its `every` may change after each run), so their timing is quantised to seconds.
//   - `nextAt` jobs (the scanner) get their own setTimeout loop: the next run starts at the time
//     the job names, to the millisecond. When the timer fires the loop asks again, and waits on if
//     that time has moved later meanwhile (e.g. an admin's scan spent part of the rate budget).
import { Elysia } from 'elysia'
import { cron, Patterns } from '@elysiajs/cron'
import type { Deps } from '../deps'
import { log } from '../lib/log'
import { isStorageFull, noteStorageFull } from '../lib/storage'
import type { Job } from './types'

export type RunningJobs = { stop(): Promise<void>; running(): string[] }

/**
 * Which node runs the jobs that must run once (issue 29 §3): the holder of the leadership
 * (src/cluster/leader.ts on PostgreSQL). A single process — SQLite, the default — always holds it
 * (`ALONE`). A job without `everyNode` runs only while `isLeader`; the precise loop (the scanner)
 * also asks `confirm()` right before each run, so a node that lost the lock since its last check does
 * not poll beside the new holder.
 */
export type Holder = { readonly isLeader: boolean; confirm?(): Promise<boolean> }
export const ALONE: Holder = { isLeader: true }

/** The clock and timer of the precise loops; tests and the benchmark pass their own. */
export type Timers = {
  now(): number
  setTimeout(fn: () => void, ms: number): unknown
  clearTimeout(handle: unknown): void
}

/** A timer that fires this early (clock granularity) still counts as on time. */
const EARLY_MS = 2
/** If `nextAt` itself throws (e.g. the database is gone), the loop logs it and looks again after this. */
const RETRY_MS = 1_000

export function startJobs(deps: Deps, jobs: Job[], timers: Timers = realTimers(deps), holder: Holder = ALONE): RunningJobs {
  const inFlight = new Map<string, Promise<unknown>>()
  let stopped = false

  const start = (job: Job, done: () => void) => {
    const p = Promise.resolve()
      .then(async () => {
        if (job.everyNode) return job.run(deps)
        // another node holds the leadership: this one skips the run (and looks again at the next)
        const leads = job.nextAt && holder.confirm ? await holder.confirm() : holder.isLeader
        if (leads) return job.run(deps)
      })
      .catch((err) => {
        if (isStorageFull(err)) noteStorageFull(deps.db, Date.now(), err) // /healthz reports it
        log.error(`job ${job.name} failed`, { error: String(err) })
      })
      .finally(() => {
        inFlight.delete(job.name)
        done()
      })
    inFlight.set(job.name, p)
  }

  for (const job of jobs) job.start?.()
  const precise = jobs.flatMap((job) => (job.nextAt ? [preciseLoop(deps, job, timers, start, () => stopped)] : []))
  const crons = cronJobs(deps, jobs, start, () => stopped)

  return {
    running: () => [...inFlight.keys()],
    async stop() {
      stopped = true
      for (const c of crons) c.stop()
      for (const p of precise) p.cancel()
      for (const job of jobs) job.abort?.()
      await Promise.allSettled(inFlight.values())
      for (const job of jobs) job.stop?.()
    },
  }
}

function realTimers(deps: Deps): Timers {
  return { now: () => deps.now().getTime(), setTimeout: (fn, ms) => setTimeout(fn, ms), clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>) }
}

/** The job's own timer: armed for the time `nextAt` names after each run. */
function preciseLoop(
  deps: Deps,
  job: Job & { nextAt: NonNullable<Job['nextAt']> },
  timers: Timers,
  start: (job: Job, done: () => void) => void,
  stopped: () => boolean,
) {
  let handle: unknown = null
  let last = { startedAt: timers.now(), endedAt: timers.now() }
  /** Asks `nextAt` and gives `then` the wait: at once when it answers a number, once its promise settles otherwise. */
  const waitMs = (then: (ms: number) => void) => {
    const failed = (err: unknown) => {
      log.error(`job ${job.name} could not schedule its next run`, { error: String(err) })
      then(RETRY_MS)
    }
    let at: number | Promise<number>
    try {
      at = job.nextAt(deps, last)
    } catch (err) {
      return failed(err)
    }
    if (typeof at === 'number') return then(at - timers.now())
    void at.then((t) => then(t - timers.now()), failed)
  }
  const arm = (ms: number, unconditionally = false) => {
    if (!stopped()) handle = timers.setTimeout(() => fire(unconditionally), Math.max(0, ms))
  }
  const run = () => {
    const startedAt = timers.now()
    start(job, () => {
      last = { startedAt, endedAt: timers.now() }
      waitMs(arm)
    })
  }
  const fire = (unconditionally: boolean) => {
    handle = null
    if (stopped()) return
    if (unconditionally) return run()
    waitMs((wait) => {
      if (stopped()) return
      if (wait > EARLY_MS) return arm(wait)
      run()
    })
  }
  if (job.immediate) arm(0, true)
  else waitMs(arm)
  return {
    cancel() {
      if (handle !== null) timers.clearTimeout(handle)
      handle = null
    },
  }
}

/** The periodic jobs on a once-a-second cron tick. */
function cronJobs(deps: Deps, jobs: Job[], start: (job: Job, done: () => void) => void, stopped: () => boolean) {
  const dueAt = new Map<string, number>()
  const running = new Set<string>()
  const delay = (every: number | ((deps: Deps) => number)) => (typeof every === 'function' ? every(deps) : every)
  const tick = (job: Job & { every: number | ((deps: Deps) => number) }) => {
    if (stopped() || running.has(job.name) || Date.now() < (dueAt.get(job.name) ?? 0)) return
    running.add(job.name)
    start(job, () => {
      running.delete(job.name)
      dueAt.set(job.name, Date.now() + delay(job.every))
    })
  }
  let scheduler = new Elysia({ name: 'jobs' }) as unknown as Elysia
  const periodic = jobs.filter((job): job is Job & { every: number | ((deps: Deps) => number) } => job.every !== undefined)
  for (const job of periodic) {
    dueAt.set(job.name, job.immediate ? 0 : Date.now() + delay(job.every))
    scheduler = scheduler.use(cron({ name: job.name, pattern: Patterns.everySecond(), run: () => tick(job) })) as unknown as Elysia
  }
  for (const job of periodic) if (job.immediate) tick(job)
  const crons = (scheduler.store as { cron?: Record<string, { stop(): void }> }).cron ?? {}
  return Object.values(crons)
}
