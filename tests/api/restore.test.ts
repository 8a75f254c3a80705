// Restoring a backup (issue 11 item 11): the posts made since the backup come back from (fake)
// Reddit on the next scan. They are matched and stored again, but a post created before the
// restore point sends no email or push a second time; a post after it alerts as usual. Both ways
// of restoring: `dibs restore <file>` (the real CLI), and a backup copied over dibs.db by hand,
// noticed at the next start.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { Database } from 'bun:sqlite'
import { copyFileSync, existsSync, rmSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { backupDatabase } from '../../src/db/backup'
import { recordRestorePoint } from '../../src/settings/restore-point'
import { matches, notificationPrefs, outbox } from '../../src/db/schema'
import { runDigests } from '../../src/notify/digest'
import { runScan } from '../../src/scanner/scan'
import { createScanSource } from '../../src/scanner/source'
import { addTerm } from '../../src/terms/service'
import { startFakeReddit, type FakeReddit } from '../fakes/reddit'
import { createUserWithSession, makeDeps, runCli, startTestServer, tempDir, testClock } from '../helpers'

const FULL = { role: 'product+gd' as const, subscriptionStatus: 'active', accessExpiresAt: null }

let reddit: FakeReddit
beforeAll(async () => {
  reddit = await startFakeReddit()
})
afterAll(() => reddit.stop())

type Server = Awaited<ReturnType<typeof startTestServer>>

/** One scan on a fresh source (its own rate budget), then the dispatcher's flush. */
async function scan(server: Server) {
  const outcome = await runScan(server.deps, createScanSource(server.deps))
  expect(outcome.status).toBe('success')
  await Bun.sleep(20)
  return outcome
}

const alerts = (server: Server) =>
  server.deps.sqlite
    .query<{ title: string }, []>(
      `SELECT m.post_title AS title FROM outbox o JOIN matches m ON o.dedupe_key = 'match:' || m.id || ':email' WHERE o.kind = 'match' ORDER BY o.id`,
    )
    .all()
    .map((r) => r.title)
const matched = (server: Server) =>
  server.deps.sqlite
    .query<{ title: string }, []>('SELECT post_title AS title FROM matches ORDER BY post_created_at, id')
    .all()
    .map((r) => r.title)

/**
 * A server that alerted for one post, was backed up, then alerted for two more posts, and stopped.
 * Returns its DATA_DIR and the backup file.
 */
async function historyWithBackup(tag: string) {
  const dataDir = tempDir()
  const env = { DATA_DIR: dataDir, REDDIT_BASE_URL: reddit.url, REDDIT_AUTH_URL: reddit.authUrl }
  const server = await startTestServer(env)
  const { userId } = await createUserWithSession(server.deps, { email: `${tag}@example.com`, emailFrequency: 'instant' })
  await addTerm(server.deps, userId, FULL, 'wts', tag)
  await Bun.sleep(1100) // Reddit times are whole seconds: posts must be newer than the term
  reddit.publish({ title: `[WTS] ${tag} one - $100` })
  await scan(server)
  const backup = join(tempDir(), 'backup.db')
  backupDatabase(server.config.dbPath, backup)
  await Bun.sleep(1100)
  reddit.publish({ title: `[WTS] ${tag} two - $200` })
  reddit.publish({ title: `[WTS] ${tag} three - $300` })
  await scan(server)
  expect(alerts(server)).toEqual([`[WTS] ${tag} one - $100`, `[WTS] ${tag} two - $200`, `[WTS] ${tag} three - $300`])
  await server.stop()
  return { env, backup }
}

/** After the restore: a scan fetches two and three again (matched, no alert); four, newer, alerts. */
async function expectNoRepeatAlerts(env: Record<string, string>, tag: string) {
  const server = await startTestServer(env)
  try {
    expect(alerts(server)).toEqual([`[WTS] ${tag} one - $100`])
    const again = await scan(server)
    expect(again.postsNew).toBe(2)
    expect(matched(server)).toEqual([`[WTS] ${tag} one - $100`, `[WTS] ${tag} two - $200`, `[WTS] ${tag} three - $300`])
    expect(alerts(server)).toEqual([`[WTS] ${tag} one - $100`])

    await Bun.sleep(1100)
    reddit.publish({ title: `[WTS] ${tag} four - $400` })
    await scan(server)
    expect(alerts(server)).toEqual([`[WTS] ${tag} one - $100`, `[WTS] ${tag} four - $400`])
    const point = server.deps.sqlite.query("SELECT value FROM system_settings WHERE name = 'restore_point'").get() as { value: string }
    return JSON.parse(point.value) as { at: number; how: string }
  } finally {
    await server.stop()
  }
}

describe('restoring a backup does not alert again for posts fetched again', () => {
  test('dibs restore <file>: the backup replaces the database, the old one is kept, re-fetched posts alert no more', async () => {
    const { env, backup } = await historyWithBackup('acog')
    const r = runCli(['restore', backup], { DATA_DIR: env.DATA_DIR })
    expect(r.err).toBe('')
    expect(r.code).toBe(0)
    expect(r.out).toContain(`restored ${backup}`)
    expect(r.out).toMatch(/restore point \d{4}-\d\d-\d\dT[\d:.]+Z: posts created up to it that are fetched again send no alerts/)
    const dbPath = join(env.DATA_DIR, 'dibs.db')
    expect(statSync(dbPath).mode & 0o777).toBe(0o600)
    const kept = /previous database kept as (\S+)\)/.exec(r.out)?.[1]
    expect(kept && existsSync(kept)).toBe(true)
    const point = await expectNoRepeatAlerts(env, 'acog')
    expect(point.how).toBe('dibs restore')
  }, 30_000)

  test('a backup copied over dibs.db by hand is noticed at the next start', async () => {
    const { env, backup } = await historyWithBackup('elcan')
    const dbPath = join(env.DATA_DIR, 'dibs.db')
    // README: stop the server, delete dibs.db and its -wal/-shm, copy the backup in. (Deleted, not
    // overwritten in place: the in-process server stopped above may keep its SQLite handle open
    // until garbage collection, which a stopped server process does not.)
    for (const f of [dbPath, `${dbPath}-wal`, `${dbPath}-shm`]) rmSync(f, { force: true })
    copyFileSync(backup, dbPath)
    const point = await expectNoRepeatAlerts(env, 'elcan')
    expect(point.how).toBe('detected')
  }, 30_000)

  test('dibs restore refuses a file that is not a sound Dibs database', () => {
    const dataDir = tempDir()
    const other = join(tempDir(), 'other.db')
    const db = new Database(other, { create: true })
    db.run('CREATE TABLE notes (x)')
    db.close()
    const r = runCli(['restore', other], { DATA_DIR: dataDir })
    expect(r.code).toBe(1)
    expect(r.err).toBe(`restore failed: ${other} is not a Dibs database\n`)
    expect(runCli(['restore'], { DATA_DIR: dataDir }).err).toContain('usage: dibs restore <file>')
  }, 30_000)

  test('a digest after a restore lists only the posts created after the restore point', async () => {
    const clock = testClock(Date.parse('2026-03-01T12:00:00Z'))
    const deps = makeDeps({}, clock)
    try {
      const { userId } = await createUserWithSession(deps, { email: 'digest@example.com' })
      deps.db
        .insert(notificationPrefs)
        .values({ userId, emailFrequency: 'batched', lastDigestAt: new Date(clock.now().getTime() - 60 * 60_000) })
        .run()
      const restoreAt = clock.now().getTime() - 10 * 60_000
      await recordRestorePoint(deps, { at: restoreAt, restoredAt: clock.now().getTime(), how: 'detected' })
      for (const [title, postAt] of [
        ['[WTS] fetched again after the restore', restoreAt - 60_000],
        ['[WTS] new since the restore', restoreAt + 60_000],
      ] as const)
        deps.db
          .insert(matches)
          .values({
            userId,
            category: 'wts',
            matchedTerms: ['wts'],
            postTitle: title,
            postUrl: `https://www.reddit.com/${postAt}`,
            postAuthor: 'a',
            postCreatedAt: new Date(postAt),
            source: 'live',
            matchedAt: new Date(clock.now().getTime() - 1000),
          })
          .run()
      expect(await runDigests(deps)).toMatchObject({ sent: 1 })
      const digest = deps.db.select().from(outbox).get()!.payload as { text: string }
      expect(digest.text).toContain('[WTS] new since the restore')
      expect(digest.text).not.toContain('fetched again')
    } finally {
      deps.close()
    }
  })
})
