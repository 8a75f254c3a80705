// One holder among several app nodes on one PostgreSQL (issue 29 §3): the scanner, the term index's
// matching and the jobs that must run once (digests, backups, reconcile, pruning) run on the node that
// holds a session-level advisory lock (`pg_try_advisory_lock`). Each node keeps one connection of its
// own for the lock and, every interval:
//   - not holding: tries the lock; on success it holds and says so (`onChange(true)`);
//   - holding: checks in `pg_locks` that its own session still holds it. A failed check (the
//     connection is gone, the database restarted, the session was terminated) steps down at once
//     (`onChange(false)`) and drops the connection; the next round connects afresh and tries again.
// A holder that dies (SIGKILL, power) closes its TCP connection; PostgreSQL ends its session and frees
// the lock, and another node takes it at its next try: within one interval, two at the most.
// A holder cut off from the database without dying stops believing it holds at its next check (one
// interval); until then it may finish a poll it started, which is why the interval is kept short
// beside a poll's length (docs/SCALING.md, "Failure cases").
import postgres from 'postgres'

export type Leadership = {
  /** Whether this node holds the lock now, as of its last check. */
  readonly isLeader: boolean
  /** Called with true on taking the lock, false on losing it; returns an unsubscribe. */
  onChange(fn: (leader: boolean) => void): () => void
  /** Checks once now (tests, and before a poll that must not overlap: `await leadership.confirm()`). */
  confirm(): Promise<boolean>
  /** Stops checking and gives the lock back. */
  stop(): Promise<void>
}

export type LeadershipOptions = {
  /** postgres://… */
  url: string
  /** The advisory-lock key (src/cluster/locks.ts). */
  key: number
  /** How often to try or check, ms. */
  intervalMs: number
  /** Told once per change of state or error, in words (the job log, the application log). */
  report?: (event: { leader: boolean; error?: string }) => void
}

type Conn = { sql: postgres.Sql; pid: number }

export function startLeadership(opts: LeadershipOptions): Leadership {
  let conn: Conn | null = null
  let leader = false
  let stopped = false
  let lastError: string | undefined
  let timer: ReturnType<typeof setTimeout> | undefined
  let running: Promise<boolean> | null = null
  const listeners = new Set<(leader: boolean) => void>()

  const set = (next: boolean, error?: string) => {
    if (error !== undefined && error !== lastError) opts.report?.({ leader: next, error })
    lastError = error
    if (next === leader) return
    leader = next
    if (error === undefined) opts.report?.({ leader: next })
    for (const fn of listeners) fn(next)
  }

  const drop = async () => {
    const c = conn
    conn = null
    await c?.sql.end({ timeout: 0 }).catch(() => {})
  }

  const connect = async (): Promise<Conn> => {
    // A pool of one, closed on any failure. The driver would reconnect it silently, so the holder's
    // check compares the session's pid with the one that took the lock.
    const sql = postgres(opts.url, { max: 1, idle_timeout: 0, connect_timeout: Math.max(1, Math.ceil(opts.intervalMs / 1000)), onnotice: () => {} })
    try {
      const [row] = (await sql`SELECT pg_backend_pid() AS pid`) as unknown as { pid: number }[]
      return { sql, pid: row!.pid }
    } catch (err) {
      await sql.end({ timeout: 0 }).catch(() => {})
      throw err
    }
  }

  const round = async (): Promise<boolean> => {
    try {
      if (!conn) conn = await connect()
      const c = conn
      if (leader) {
        // Ours only while our own session (the pid we took it with) holds it.
        const rows = (await c.sql`
          SELECT 1 FROM pg_locks
          WHERE locktype = 'advisory' AND granted AND pid = pg_backend_pid() AND pid = ${c.pid}
            AND classid = 0 AND objid = ${opts.key} AND objsubid = 1`) as unknown as unknown[]
        if (rows.length === 0) {
          await drop()
          set(false, 'the lock was lost (the session ended)')
        } else set(true)
      } else {
        const [row] = (await c.sql`SELECT pg_try_advisory_lock(${opts.key}::bigint) AS ok`) as unknown as { ok: boolean }[]
        set(row!.ok === true)
      }
    } catch (err) {
      await drop()
      set(false, err instanceof Error ? err.message : String(err))
    }
    return leader
  }

  const once = () => (running ??= round().finally(() => (running = null)))

  const loop = async () => {
    if (stopped) return
    await once()
    if (!stopped) timer = setTimeout(() => void loop(), opts.intervalMs)
  }
  void loop()

  return {
    get isLeader() {
      return leader
    },
    onChange(fn) {
      listeners.add(fn)
      return () => listeners.delete(fn)
    },
    confirm: once,
    async stop() {
      stopped = true
      clearTimeout(timer)
      await running
      if (conn && leader) await conn.sql`SELECT pg_advisory_unlock(${opts.key}::bigint)`.catch(() => {})
      set(false)
      await drop()
    },
  }
}
