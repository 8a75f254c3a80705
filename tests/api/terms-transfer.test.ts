// Terms import and export (issue 28 §3): export → import into a fresh account gives identical terms
// (JSON and CSV), the preview says what is added, what is a duplicate and what is refused and why,
// a dry run stores nothing, applying stores exactly the preview's additions, and unreadable files
// are refused whole.
import { describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { asAsync } from '../../src/db/async-sqlite'
import { matches, searchTerms } from '../../src/db/schema'
import { rowCount } from '../db-reads'
import { storePosts } from '../../src/forums/store'
import { matchPosts } from '../../src/matches/runner'
import { MAX_IMPORT_ROWS } from '../../src/terms/transfer-format'
import { forumPost } from '../fakes/forum-post'
import { call, createUserWithSession, eachTestApp } from '../helpers'

const t = eachTestApp()

/** POST /api/terms/import with a raw body (a file's text), as the browser's fetch sends it. */
async function post(body: string, opts: { cookie?: string; query?: string; contentType?: string; origin?: string } = {}) {
  const headers: Record<string, string> = { origin: opts.origin ?? 'http://localhost:3000', 'content-type': opts.contentType ?? 'application/json' }
  if (opts.cookie) headers.cookie = opts.cookie
  const res = await t.app.handle(new Request(`http://localhost:3000/api/terms/import${opts.query ?? ''}`, { method: 'POST', headers, body }))
  const text = await res.text()
  return { status: res.status, body: JSON.parse(text), text }
}

async function importBody(cookie: string, body: string, opts: { dryRun?: boolean; contentType?: string; format?: string } = {}) {
  const q = new URLSearchParams()
  if (opts.dryRun) q.set('dryRun', '1')
  if (opts.format) q.set('format', opts.format)
  return await post(body, { cookie, query: q.size ? `?${q}` : '', contentType: opts.contentType })
}

const save = (cookie: string, category: string, term: string) => call(t.app, 'POST', '/api/terms', { cookie, json: { category, term } })
const termCount = (userId: number) => rowCount(t.deps, searchTerms, eq(searchTerms.userId, userId))
const exported = async (cookie: string) => (await call(t.app, 'GET', '/api/terms/export?format=json', { cookie })).body.terms as Record<string, unknown>[]
/** What must survive a round trip: everything but the time a term was saved. */
const comparable = (terms: Record<string, unknown>[]) => terms.map(({ createdAt: _c, ...rest }) => rest)

/** An account with terms in every category, some with every option the terms API stores. */
async function richAccount() {
  const a = await createUserWithSession(t.deps)
  const ids: number[] = []
  for (const [c, term] of [
    ['wts', 'trijicon rmr'],
    ['wts', '"red dot" -airsoft | holosun <$300'],
    ['wts', 'glock 19, "quoted, with comma"'],
    ['wtb', 'p365 | p365xl'],
    ['gd', '9mm <$0.30/rd'],
  ] as const) {
    const r = await save(a.cookie, c, term)
    expect(r.status).toBe(201)
    ids.push(r.body.term.id)
  }
  expect((await call(t.app, 'PATCH', `/api/terms/${ids[1]}`, { cookie: a.cookie, json: { paused: true } })).status).toBe(200)
  const d = await call(t.app, 'PATCH', `/api/terms/${ids[2]}/delivery`, {
    cookie: a.cookie,
    json: { email: 'instant', push: false, mute: 'forever', always_notify: true },
  })
  expect(d.status).toBe(200)
  expect((await call(t.app, 'PATCH', `/api/terms/${ids[3]}/delivery`, { cookie: a.cookie, json: { email: 'off', mute: '24h' } })).status).toBe(200)
  return a
}

describe('GET /api/terms/export', () => {
  test('needs a session', async () => {
    expect((await call(t.app, 'GET', '/api/terms/export')).status).toBe(401)
  })

  test('JSON: every term of every category with its options, as a download', async () => {
    const a = await richAccount()
    const other = await createUserWithSession(t.deps)
    await save(other.cookie, 'wts', 'not yours')
    const res = await call(t.app, 'GET', '/api/terms/export?format=json', { cookie: a.cookie })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="Dibs-terms-\d{4}-\d{2}-\d{2}\.json"$/)
    expect(res.body).toMatchObject({ format: 'dibs-terms', version: 1, exportedAt: expect.any(String) })
    expect(res.body.terms.map((x: { category: string; term: string }) => `${x.category}:${x.term}`)).toEqual([
      'wts:trijicon rmr',
      'wts:"red dot" -airsoft | holosun <$300',
      'wts:glock 19, "quoted, with comma"',
      'wtb:p365 | p365xl',
      'gd:9mm <$0.30/rd',
    ])
    expect(res.body.terms[1]).toMatchObject({ paused: true, delivery: { email: 'default', push: true, endpoints: {} }, mutedUntil: null, alwaysNotify: false })
    expect(res.body.terms[2]).toMatchObject({
      paused: false,
      delivery: { email: 'instant', push: false, endpoints: {} },
      mutedUntil: 'forever',
      alwaysNotify: true,
    })
    expect(res.text).not.toContain('not yours')
  })

  test('CSV: a header row and RFC 4180 quoting', async () => {
    const a = await richAccount()
    const res = await call(t.app, 'GET', '/api/terms/export?format=csv', { cookie: a.cookie })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8; header=present')
    expect(res.headers.get('content-disposition')).toEndWith('.csv"')
    const lines = res.text.split('\r\n')
    expect(lines[0]).toBe('category,term,paused,email,push,channels_off,muted_until,always_notify,created_at')
    expect(lines[1]).toMatch(/^wts,trijicon rmr,false,default,true,,,false,\d{4}-/)
    expect(lines[2]).toMatch(/^wts,"""red dot"" -airsoft \| holosun <\$300",true,default,true,,,false,/)
    expect(lines[3]).toMatch(/^wts,"glock 19, ""quoted, with comma""",false,instant,false,,forever,true,/)
    expect(lines[4]).toMatch(/^wtb,p365 \| p365xl,false,off,true,,\d{4}-\d{2}-\d{2}T[\d:.]+Z,false,/)
    expect(lines.at(-1)).toBe('') // every record ends in CRLF
  })
})

describe('round trip: export → import into a fresh account → identical terms', () => {
  for (const format of ['json', 'csv'] as const)
    test(format, async () => {
      const a = await richAccount()
      const file = await call(t.app, 'GET', `/api/terms/export?format=${format}`, { cookie: a.cookie })
      const b = await createUserWithSession(t.deps)
      const contentType = format === 'csv' ? 'text/csv' : 'application/json'
      const preview = await importBody(b.cookie, file.text, { dryRun: true, contentType })
      expect(preview.status).toBe(200)
      expect(preview.body).toMatchObject({ dryRun: true, format, summary: { add: 5, duplicate: 0, refused: 0 } })
      expect(await termCount(b.userId)).toBe(0)
      const applied = await importBody(b.cookie, file.text, { contentType })
      expect(applied.status).toBe(200)
      expect(applied.body.dryRun).toBe(false)
      expect(applied.body.rows).toEqual(preview.body.rows)
      expect(comparable(await exported(b.cookie))).toEqual(comparable(await exported(a.cookie)))
      // the imported terms work: listed by the terms API, matched against new posts
      const listed = await call(t.app, 'GET', '/api/terms?category=wts', { cookie: b.cookie })
      expect(listed.body.terms.map((x: { term: string }) => x.term)).toContain('trijicon rmr')
      const stored = await storePosts(t.deps, [forumPost('[WTS] Trijicon RMR type 2 - $350', { now: t.clock.now().getTime() })])
      const hits = await matchPosts(t.deps, stored, 'live')
      expect(hits.created.map((c) => c.userId).toSorted((x, y) => x - y)).toEqual([a.userId, b.userId].toSorted((x, y) => x - y))
      // importing the same file again adds nothing: every row is a duplicate
      const again = await importBody(b.cookie, file.text, { contentType })
      expect(again.body.summary).toEqual({ add: 0, duplicate: 5, refused: 0 })
    })

  test('channel settings for channels the account does not have are left out, with a note', async () => {
    const a = await createUserWithSession(t.deps)
    const body = JSON.stringify([{ category: 'wts', term: 'rmr', delivery: { email: 'digest', push: true, endpoints: { '999': false } } }])
    const r = await importBody(a.cookie, body)
    expect(r.body.rows[0]).toMatchObject({ status: 'add', note: 'Channel settings for channels this account does not have were left out.' })
    expect((await exported(a.cookie))[0]).toMatchObject({ term: 'rmr', delivery: { email: 'digest', push: true, endpoints: {} } })
  })
})

describe('POST /api/terms/import: refusals and duplicates', () => {
  test('each row is judged: syntax, unknown category, plan, option, duplicate, repeat, limit', async () => {
    const u = await createUserWithSession(t.deps, { role: 'product' }) // no deals forum
    for (let i = 0; i < 8; i++) expect((await save(u.cookie, 'wts', `saved${i}`)).status).toBe(201)
    const csv = [
      'category,term,paused',
      'wts,"(rmr OR sro",',
      'swap,rmr,',
      'gd,rmr,',
      'wts,holosun,maybe',
      'wts,Saved3,',
      'WTS,  New   One ,',
      'wts,new one,',
      'wts,another,true',
      'wts,third,',
      'wtb,third,',
      '',
    ].join('\r\n')
    const r = await importBody(u.cookie, csv, { dryRun: true, contentType: 'text/csv' })
    expect(r.status).toBe(200)
    const pick = (row: Record<string, unknown>) => [row.line, row.category, row.term, row.status, row.code, row.reason]
    expect(r.body.rows.map(pick)).toEqual([
      [2, 'wts', '(rmr OR sro', 'refused', 'INVALID_TERM', 'Invalid search term: Unbalanced parenthesis: add the closing )'],
      [3, 'swap', 'rmr', 'refused', 'UNKNOWN_CATEGORY', 'Unknown category "swap": use wts, wtb or gd.'],
      [4, 'gd', 'rmr', 'refused', 'FORUM_NOT_IN_PLAN', 'Your plan does not include this forum.'],
      [5, 'wts', 'holosun', 'refused', 'INVALID_OPTION', 'Invalid option — paused: expected true or false.'],
      [6, 'wts', 'saved3', 'duplicate', 'TERM_EXISTS', 'Already in your WTS terms.'],
      [7, 'wts', 'new one', 'add', null, null],
      [8, 'wts', 'new one', 'duplicate', 'REPEATED', 'Repeats line 7 of this file.'],
      [9, 'wts', 'another', 'add', null, null],
      [10, 'wts', 'third', 'refused', 'TERM_LIMIT', 'Maximum terms reached: your plan allows 10 WTS terms.'],
      [11, 'wtb', 'third', 'add', null, null],
    ])
    expect(r.body.summary).toEqual({ add: 3, duplicate: 2, refused: 5 })
    expect(await termCount(u.userId)).toBe(8) // the dry run stored nothing

    const applied = await importBody(u.cookie, csv, { contentType: 'text/csv' })
    expect(applied.body.rows).toEqual(r.body.rows)
    const terms = await exported(u.cookie)
    expect(terms.filter((x) => x.category === 'wts')).toHaveLength(10)
    expect(terms.slice(8).map((x) => [x.category, x.term, x.paused])).toEqual([
      ['wts', 'new one', false],
      ['wts', 'another', true],
      ['wtb', 'third', false],
    ])
  })

  test('JSON rows: bad option values and a term over 1000 characters', async () => {
    const u = await createUserWithSession(t.deps)
    const body = JSON.stringify({
      terms: [
        { category: 'wts', term: 'a', delivery: { email: 'sometimes' } },
        { category: 'wts', term: 'b', mutedUntil: 'tomorrow' },
        { category: 'wts', term: 'c', alwaysNotify: 'yes please' },
        { category: 'wts', term: 'x'.repeat(1001) },
        { category: 7, term: 'd' },
        { category: 'wts' },
      ],
    })
    const r = await importBody(u.cookie, body, { dryRun: true })
    expect(r.body.rows.map((x: { code: string; reason: string }) => [x.code, x.reason])).toEqual([
      ['INVALID_OPTION', 'Invalid option — email: expected one of default, instant, digest, off.'],
      ['INVALID_OPTION', 'Invalid option — mutedUntil: expected "forever", an ISO time, or nothing.'],
      ['INVALID_OPTION', 'Invalid option — alwaysNotify: expected true or false.'],
      ['INVALID_TERM', 'Invalid search term: a term is at most 1000 characters.'],
      ['UNKNOWN_CATEGORY', 'Unknown category "7": use wts, wtb or gd.'],
      ['INVALID_TERM', 'Invalid search term: Enter at least one word to look for'],
    ])
  })

  test('a mute that has already run out is imported as no mute', async () => {
    const u = await createUserWithSession(t.deps)
    const past = new Date(t.clock.now().getTime() - 60_000).toISOString()
    const future = new Date(t.clock.now().getTime() + 3_600_000).toISOString()
    await importBody(
      u.cookie,
      JSON.stringify([
        { category: 'wts', term: 'old mute', mutedUntil: past },
        { category: 'wts', term: 'new mute', mutedUntil: future },
      ]),
    )
    expect((await exported(u.cookie)).map((x) => x.mutedUntil)).toEqual([null, future])
  })

  test.each([
    ['bad JSON', 'application/json', '{"terms": [', /^The file is not valid JSON/],
    ['JSON that is not a list of terms', 'application/json', '{"rows": []}', /^Expected a JSON list of terms/],
    ['a JSON term that is not an object', 'application/json', '["rmr"]', /^Term 1 is not an object/],
    ['bad CSV quoting', 'text/csv', 'category,term\r\nwts,"rmr\r\n', /^The file is not valid CSV \(line 2: a quoted field is never closed\)\.$/],
    ['CSV without a term column', 'text/csv', 'category,text\r\nwts,rmr\r\n', /^The CSV header has no "term" column/],
    ['a CSV row with more fields than the header', 'text/csv', 'category,term\r\nwts,rmr,extra\r\n', /^CSV line 2 has 3 fields; the header names 2\.$/],
    ['a file without terms', 'text/csv', 'category,term\r\n', /^The file has no terms\.$/],
  ])('%s is refused whole: 400 BAD_IMPORT, nothing stored', async (_name, contentType, body, message) => {
    const u = await createUserWithSession(t.deps)
    for (const dryRun of [true, false]) {
      const r = await importBody(u.cookie, body, { contentType, dryRun })
      expect(r.status).toBe(400)
      expect(r.body.error.code).toBe('BAD_IMPORT')
      expect(r.body.error.message).toMatch(message)
    }
    expect(await termCount(u.userId)).toBe(0)
  })

  test(`more than ${MAX_IMPORT_ROWS} rows are refused whole`, async () => {
    const u = await createUserWithSession(t.deps)
    const csv = ['category,term', ...Array.from({ length: MAX_IMPORT_ROWS + 1 }, (_, i) => `wts,t${i}`)].join('\n')
    const r = await importBody(u.cookie, csv, { contentType: 'text/csv' })
    expect(r.status).toBe(400)
    expect(r.body.error.message).toBe(`The file has ${MAX_IMPORT_ROWS + 1} terms; at most ${MAX_IMPORT_ROWS} are read at once.`)
  })

  test('the format: ?format= wins over the Content-Type, which wins over sniffing', async () => {
    const u = await createUserWithSession(t.deps)
    const csv = 'category,term\nwts,rmr\n'
    expect((await importBody(u.cookie, csv, { dryRun: true, contentType: 'text/plain' })).body.format).toBe('csv')
    expect((await importBody(u.cookie, '[{"category":"wts","term":"rmr"}]', { dryRun: true, contentType: 'text/plain' })).body.format).toBe('json')
    expect((await importBody(u.cookie, csv, { dryRun: true, contentType: 'application/json', format: 'csv' })).body.format).toBe('csv')
  })

  test('needs a session and a same-origin request', async () => {
    expect((await post('[]')).status).toBe(401)
    const u = await createUserWithSession(t.deps)
    const cross = await post('[{"category":"wts","term":"rmr"}]', { cookie: u.cookie, origin: 'https://evil.example' })
    expect(cross.status).toBe(403)
    expect(await termCount(u.userId)).toBe(0)
  })
})

describe('applying', () => {
  test('imported terms backfill the last 7 days as read, never notified, like terms saved one by one', async () => {
    const u = await createUserWithSession(t.deps)
    await storePosts(t.deps, [forumPost('[WTS] Aimpoint T2 - $600', { now: t.clock.now().getTime(), ageMs: 3_600_000 })])
    const dry = await importBody(u.cookie, '[{"category":"wts","term":"aimpoint"}]', { dryRun: true })
    expect(dry.status).toBe(200)
    expect(await rowCount(t.deps, matches, eq(matches.userId, u.userId))).toBe(0)
    await importBody(u.cookie, '[{"category":"wts","term":"aimpoint"}]')
    expect(await asAsync(t.deps.db).select({ source: matches.source, isNew: matches.isNew }).from(matches).where(eq(matches.userId, u.userId))).toEqual([
      { source: 'backfill', isNew: false },
    ])
  })
})
