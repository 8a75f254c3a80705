// The engine the suites' databases run on: SQLite files by default; with DIBS_TEST_ENGINE=postgres,
// a database of its own on one PostgreSQL server from Debian's packages per test process (tests/pg.ts,
// started at the first need, stopped when the process exits). CI runs the suites listed in
// tests/postgres-suites.txt this way too (.ci/run): the same tests, the same assertions, on PostgreSQL.
import { randomBytes } from 'node:crypto'
import { generateVAPIDKeys } from 'web-push'
import { startPostgres, type PgServer } from './pg'

export const TEST_ENGINE: 'sqlite' | 'postgres' = process.env.DIBS_TEST_ENGINE === 'postgres' ? 'postgres' : 'sqlite'

let server: PgServer | null = null
let starting: Promise<PgServer> | null = null

/** A fresh PostgreSQL database for one test's deps or server; its URL. */
export async function testDatabaseUrl(): Promise<string> {
  starting ??= startPostgres().then((s) => {
    server = s
    process.on('exit', () => void server?.stop()) // pg_ctl stop runs synchronously
    return s
  })
  return (await starting).newDatabase()
}

const vapid = generateVAPIDKeys()
/** With DATABASE_URL every node's secrets come from the environment (src/config.ts SHARED_SECRETS): one set per test process. */
export const SHARED_TEST_SECRETS: Record<string, string> = {
  SESSION_SECRET: randomBytes(32).toString('base64url'),
  UNSUBSCRIBE_SECRET: randomBytes(32).toString('base64url'),
  TOTP_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
  VAPID_PUBLIC_KEY: vapid.publicKey,
  VAPID_PRIVATE_KEY: vapid.privateKey,
}

/** The environment that puts a test's config on the test engine (nothing on SQLite). */
export async function engineEnv(): Promise<Record<string, string>> {
  return TEST_ENGINE === 'postgres' ? { DATABASE_URL: await testDatabaseUrl(), ...SHARED_TEST_SECRETS } : {}
}

/** The environment that puts a CLI process on the database of a test's config (its DATABASE_URL and the shared secrets; nothing on SQLite). */
export function engineEnvOf(config: { databaseUrl: string | null }): Record<string, string> {
  return config.databaseUrl === null ? {} : { DATABASE_URL: config.databaseUrl, ...SHARED_TEST_SECRETS }
}
