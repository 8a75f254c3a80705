// A background job (STYLE: jobs are a list). `run` is a plain function the CLI, an admin button
// and a test can call directly; src/jobs/schedule.ts only wires the timing.
import type { Deps } from '../deps'

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
