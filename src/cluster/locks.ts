// The advisory-lock keys of Dibs on PostgreSQL, one per purpose, in one place (any bigint; kept small
// so `pg_locks` shows them whole in `objid`).
export const LOCKS = {
  /** Schema migrations at startup (src/db/migrate-pg.ts): one node applies each. */
  migrations: 7_226_001,
  /** The scanner, the term index's matching and the jobs that run once (src/cluster/leader.ts). */
  scanner: 7_226_002,
} as const
