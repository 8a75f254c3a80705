// A background job (STYLE: jobs are a list). `run` is a plain function the CLI, an admin button
// and a test can call directly; src/jobs/schedule.ts only wires the timing.
import type { Deps } from '../deps'

export type Job = {
  name: string
  run: (deps: Deps) => unknown // a promise or a value
  /** start right away instead of after the first interval */
  immediate?: boolean
  /** called once when the jobs start (e.g. to warn about a setting that was adjusted) */
  start?: () => void
  /** called once when the jobs stop (e.g. to release a listener or a connection pool) */
  stop?: () => void
  /** called when the jobs stop, before waiting for a run in flight: ends a long wait at once (Telegram's long poll) */
  abort?: () => void
  /**
   * Runs on every app node (the outbox worker: every node drains the queue). Without it a job runs
   * only on the node holding the leadership (src/jobs/schedule.ts `Holder`): the scanner, the
   * re-check, the digests, backups, reconcile, pruning — work that must happen once, not once per node.
   */
  everyNode?: true
} & (
  | {
      /** timed by the once-a-second cron tick: milliseconds between runs, or a function deciding the next delay after each run */
      every: number | ((deps: Deps) => number)
      nextAt?: never
    }
  | {
      /**
       * timed precisely on the job's own timer (the scanner): when the next run should start (ms
       * since epoch), given when the last one started and ended; asked again when the timer fires
       */
      nextAt: (deps: Deps, last: { startedAt: number; endedAt: number }) => number | Promise<number>
      every?: never
    }
)
