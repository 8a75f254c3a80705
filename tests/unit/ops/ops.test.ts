// The pure parts of the operator tools: the MAIL_FROM domain rule, the doctor's key checks and
// report, the progress line, the backup names and rotation; and `dibs healthcheck` against a
// tiny local server (readyz, its /healthz fallback, a failure, a timeout).
import { afterAll, describe, expect, test } from 'bun:test'
import webpush from 'web-push'
import { mailFromProblem } from '../../../src/lib/mail-domain'
import { progress, progressLine } from '../../../src/cli/progress'
import { checkStripeShapes, checkVapid } from '../../../src/ops/doctor-shapes'
import { formatReport } from '../../../src/ops/doctor-report'
import { checkClock } from '../../../src/ops/doctor'
import { backupName, backupTime, toDelete } from '../../../src/ops/backups'
import { healthcheck } from '../../../src/ops/healthcheck'

describe('MAIL_FROM', () => {
  test('an IP, localhost or a private name cannot be authenticated; a public domain can', () => {
    expect(mailFromProblem('Dibs <no-reply@127.0.0.1>')).toContain('IP address (127.0.0.1)')
    expect(mailFromProblem('no-reply@[::1]')).toContain('IP address')
    expect(mailFromProblem('Dibs <no-reply@localhost>')).toContain('not a public domain')
    expect(mailFromProblem('dibs@nas.local')).toContain('not a public domain')
    expect(mailFromProblem('dibs@server')).toContain('not a public domain')
    expect(mailFromProblem('Dibs <alerts@dibs.example.com>')).toBeNull()
    expect(mailFromProblem('alerts@Mail.Example.ORG')).toBeNull()
  })
})

describe('doctor checks', () => {
  const subject = 'mailto:admin@example.com'
  test('VAPID: a generated pair holds; a public key of another pair or a wrong length does not', () => {
    const a = webpush.generateVAPIDKeys()
    const b = webpush.generateVAPIDKeys()
    expect(checkVapid({ ...a, subject }).status).toBe('ok')
    expect(checkVapid({ publicKey: b.publicKey, privateKey: a.privateKey, subject })).toMatchObject({
      status: 'fail',
      detail: 'the public key does not belong to the private key',
    })
    expect(checkVapid({ publicKey: a.publicKey.slice(0, 40), privateKey: a.privateKey, subject }).status).toBe('fail')
    expect(checkVapid({ publicKey: a.publicKey, privateKey: 'c2hvcnQ', subject }).status).toBe('fail')
  })

  test('Stripe: keys of one mode and a whsec_ secret; mixed modes and other secrets fail with a fix', () => {
    const ok = checkStripeShapes({ secretKey: 'sk_live_abc123', publishableKey: 'pk_live_def456', webhookSecret: 'whsec_0123abcd', apiBase: null, jsUrl: '' })
    expect(ok.map((r) => r.status)).toEqual(['ok', 'ok'])
    const mixed = checkStripeShapes({ secretKey: 'sk_test_abc123', publishableKey: 'pk_live_def456', webhookSecret: 'we_123', apiBase: null, jsUrl: '' })
    expect(mixed.map((r) => r.status)).toEqual(['fail', 'fail'])
    expect(mixed[0]!.detail).toBe('the secret key is a test key, the publishable key a live key')
    expect(mixed.every((r) => r.fix)).toBe(true)
    expect(checkStripeShapes({ secretKey: 'rk_test_abc', publishableKey: 'pk_test_x', webhookSecret: 'whsec_abcd', apiBase: null, jsUrl: '' })[0]!.status).toBe(
      'ok',
    )
  })

  test('clock skew: only the gap between the remote second and the request counts', () => {
    const t = Date.parse('2026-11-24T05:00:00.000Z')
    const seen = (date: number, sentAt: number, receivedAt: number) => checkClock([{ date, sentAt, receivedAt, from: 'Reddit' }])
    expect(seen(t, t + 900, t + 2500)).toMatchObject({ status: 'ok', detail: "0 s ahead of Reddit's clock" }) // slow answer, whole-second header
    expect(seen(t - 120_000, t, t + 50)).toMatchObject({ status: 'fail', detail: "119 s ahead of Reddit's clock" })
    expect(seen(t + 30_000, t, t + 50)).toMatchObject({ status: 'warn', detail: "30 s behind Reddit's clock" })
    expect(checkClock([]).status).toBe('warn')
  })

  test('the report: ✓ ! ✗ marks, a fix under each problem, exit 1 only on ✗', () => {
    const warnOnly = formatReport([
      { status: 'ok', name: 'a', detail: 'fine' },
      { status: 'warn', name: 'b', detail: 'hm', fix: 'do b' },
    ])
    expect(warnOnly).toEqual({ text: '✓ a: fine\n! b: hm\n    fix: do b\n\ndoctor: 1 ok, 1 warning(s), 0 failed', exitCode: 0 })
    expect(formatReport([{ status: 'fail', name: 'c', detail: 'broken', fix: 'do c' }]).exitCode).toBe(1)
  })
})

describe('progress', () => {
  test('a bar from done/total or from an "a/b" in the text; plain text otherwise', () => {
    expect(progressLine('match', 'matched 250/1000 posts')).toBe('match [#####---------------]  25% matched 250/1000 posts')
    expect(progressLine('restore', 'copying', 2, 4)).toBe('restore [##########----------]  50% copying')
    expect(progressLine('archive', 'archived 500 posts')).toBe('archive: archived 500 posts')
  })

  test('drawn with \\r on a terminal only: nothing at all when stderr is not a TTY', () => {
    const written: string[] = []
    const pipe = progress('x', { isTTY: false, write: (s) => written.push(s) })
    pipe.update('1/2')
    pipe.end()
    expect(written).toEqual([])
    let t = 0
    const tty = progress('x', { isTTY: true, columns: 80, write: (s) => written.push(s) }, () => t)
    tty.update('1/4')
    tty.update('2/4') // within 100 ms: skipped
    t = 200
    tty.update('3/4')
    tty.update('done', 4, 4) // the last step always shows
    tty.end()
    expect(written).toEqual([
      '\r\x1b[Kx [#####---------------]  25% 1/4',
      '\r\x1b[Kx [###############-----]  75% 3/4',
      '\r\x1b[Kx [####################] 100% done',
      '\r\x1b[K',
    ])
  })
})

describe('backup names', () => {
  test('UTC time in the name, read back; the newest N stay', () => {
    const at = new Date('2026-11-24T04:40:09.123Z')
    expect(backupName(at)).toBe('dibs-2026-11-24T04-40-09Z.db')
    expect(backupTime('dibs-2026-11-24T04-40-09Z.db')).toBe(Date.parse('2026-11-24T04:40:09Z'))
    expect(backupTime('dibs.db.before-restore-2026')).toBeNull()
    const list = [3, 1, 4, 2].map((d) => ({ name: `b${d}`, at: d }))
    expect(toDelete(list, 2).sort()).toEqual(['b1', 'b2'])
    expect(toDelete(list, 7)).toEqual([])
  })
})

describe('dibs healthcheck', () => {
  let mode: 'ready' | 'no-readyz' | 'unready' | 'stall' = 'ready'
  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    async fetch(req) {
      const path = new URL(req.url).pathname
      if (mode === 'stall') await Bun.sleep(1000)
      if (path === '/readyz')
        return mode === 'no-readyz'
          ? new Response('not found', { status: 404 })
          : Response.json({ ready: mode === 'ready' }, { status: mode === 'ready' ? 200 : 503 })
      if (path === '/healthz') return Response.json({ status: 'ok' })
      return new Response('', { status: 404 })
    },
  })
  afterAll(() => server.stop(true))

  test('200 from /readyz → ok; 404 there → /healthz; 503 → not ok; no answer in time → not ok', async () => {
    expect(await healthcheck(server.port!)).toEqual({ ok: true, line: '/readyz 200 {"ready":true}' })
    mode = 'no-readyz'
    expect(await healthcheck(server.port!)).toEqual({ ok: true, line: '/healthz 200 {"status":"ok"}' })
    mode = 'unready'
    expect(await healthcheck(server.port!)).toEqual({ ok: false, line: '/readyz 503 {"ready":false}' })
    mode = 'stall'
    expect(await healthcheck(server.port!, 200)).toEqual({ ok: false, line: `http://127.0.0.1:${server.port}: no answer within 200 ms` })
  })
})
