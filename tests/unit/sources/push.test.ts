// Pushed posts (issue 25 §3 groundwork): the source's secret, the X-Dibs-Signature check (Stripe's scheme:
// t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">, 5 minutes either way, several v1 values and a
// second secret during rotation) and the batch: 1 MB and 100 posts (413), each field checked and the first
// bad one named (400), duplicates collapsed by id.
import { describe, expect, test } from 'bun:test'
import { createHmac } from 'node:crypto'
import { newPushSecret, parsePushBatch, signPush, verifyPushSignature } from '../../../src/sources/push'

const NOW = new Date('2026-11-27T18:00:00Z')
const T = NOW.getTime() / 1000
const SECRET = 'dps_current'
const OLD = 'dps_previous'
const BODY = JSON.stringify({ posts: [{ id: 'a1', title: '[WTS] Thing', url: 'https://example.com/t/1', author: 'sam', created_utc: T - 60 }] })
/** Stripe's recipe written out independently of the code under test. */
const hex = (secret: string, t: number, body: string) => createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')

describe('newPushSecret', () => {
  test('is prefixed, carries 256 bits and differs every time', () => {
    const a = newPushSecret()
    expect(a).toMatch(/^dps_[A-Za-z0-9_-]{43}$/)
    expect(Buffer.from(a.slice(4), 'base64url').length).toBe(32)
    expect(newPushSecret()).not.toBe(a)
  })
})

describe('signPush', () => {
  test('is t=<t>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">', () => {
    expect(signPush(SECRET, BODY, T)).toBe(`t=${T},v1=${hex(SECRET, T, BODY)}`)
  })
  test('signs bytes as it signs the same text', () => {
    expect(signPush(SECRET, new TextEncoder().encode(BODY), T)).toBe(signPush(SECRET, BODY, T))
  })
})

describe('verifyPushSignature', () => {
  const good = `t=${T},v1=${hex(SECRET, T, BODY)}`
  const cases: [string, string | null | undefined, string | string[], string, 'ok' | 'missing' | 'malformed' | 'stale' | 'future' | 'mismatch'][] = [
    ['a good signature', good, SECRET, BODY, 'ok'],
    ['spaces and upper-case hex', ` t=${T} , v1=${hex(SECRET, T, BODY).toUpperCase()} `, SECRET, BODY, 'ok'],
    ['an unknown scheme beside v1 (v0, Stripe sends it in test mode)', `t=${T},v0=abc,v1=${hex(SECRET, T, BODY)}`, SECRET, BODY, 'ok'],
    ['several v1 values, the second one good', `t=${T},v1=${hex('other', T, BODY)},v1=${hex(SECRET, T, BODY)}`, SECRET, BODY, 'ok'],
    ['signed with the old secret during rotation', `t=${T},v1=${hex(OLD, T, BODY)}`, [SECRET, OLD], BODY, 'ok'],
    ['signed with both secrets during rotation', `t=${T},v1=${hex(OLD, T, BODY)},v1=${hex(SECRET, T, BODY)}`, [SECRET, OLD], BODY, 'ok'],
    ['signed with the old secret after rotation ended', `t=${T},v1=${hex(OLD, T, BODY)}`, SECRET, BODY, 'mismatch'],
    ['4:59 old', `t=${T - 299},v1=${hex(SECRET, T - 299, BODY)}`, SECRET, BODY, 'ok'],
    ['exactly 5 minutes old', `t=${T - 300},v1=${hex(SECRET, T - 300, BODY)}`, SECRET, BODY, 'ok'],
    ['5 minutes and 1 second old', `t=${T - 301},v1=${hex(SECRET, T - 301, BODY)}`, SECRET, BODY, 'stale'],
    ['an hour old', `t=${T - 3600},v1=${hex(SECRET, T - 3600, BODY)}`, SECRET, BODY, 'stale'],
    ['5 minutes ahead', `t=${T + 300},v1=${hex(SECRET, T + 300, BODY)}`, SECRET, BODY, 'ok'],
    ['5 minutes and 1 second ahead', `t=${T + 301},v1=${hex(SECRET, T + 301, BODY)}`, SECRET, BODY, 'future'],
    ['no header', null, SECRET, BODY, 'missing'],
    ['no header (undefined)', undefined, SECRET, BODY, 'missing'],
    ['an empty header', '  ', SECRET, BODY, 'missing'],
    ['no t', `v1=${hex(SECRET, T, BODY)}`, SECRET, BODY, 'malformed'],
    ['no v1', `t=${T}`, SECRET, BODY, 'malformed'],
    ['t not a number', `t=yesterday,v1=${hex(SECRET, T, BODY)}`, SECRET, BODY, 'malformed'],
    ['t in milliseconds-ish garbage', `t=${T}.5,v1=${hex(SECRET, T, BODY)}`, SECRET, BODY, 'malformed'],
    ['GitHub style instead', `sha256=${hex(SECRET, T, BODY)}`, SECRET, BODY, 'malformed'],
    ['a wrong secret', `t=${T},v1=${hex('wrong', T, BODY)}`, SECRET, BODY, 'mismatch'],
    ['a tampered body', good, SECRET, BODY.replace('Thing', 'Thinq'), 'mismatch'],
    ['a tampered timestamp', `t=${T + 1},v1=${hex(SECRET, T, BODY)}`, SECRET, BODY, 'mismatch'],
    ['a truncated v1', `t=${T},v1=${hex(SECRET, T, BODY).slice(0, 63)}`, SECRET, BODY, 'mismatch'],
    ['an empty secret never matches', `t=${T},v1=${hex('', T, BODY)}`, '', BODY, 'mismatch'],
    ['no secrets at all', good, [], BODY, 'mismatch'],
    ['stale and badly signed says mismatch', `t=${T - 3600},v1=${hex('wrong', T - 3600, BODY)}`, SECRET, BODY, 'mismatch'],
  ]
  test.each(cases)('%s', (_name, header, secrets, body, want) => {
    const r = verifyPushSignature(header, body, secrets, NOW)
    if (want === 'ok') expect(r).toEqual({ ok: true, t: expect.any(Number) })
    else {
      expect(r.ok).toBe(false)
      if (!r.ok) {
        expect(r.error).toBe(want)
        expect(r.message).toContain('X-Dibs-Signature')
      }
    }
  })
  test('a header made by signPush verifies, over bytes too', () => {
    expect(verifyPushSignature(signPush(SECRET, BODY, T), new TextEncoder().encode(BODY), SECRET, NOW).ok).toBe(true)
  })
})

describe('parsePushBatch', () => {
  const post = (over: Record<string, unknown> = {}) => ({
    id: 'abc_1-2',
    title: '[WTS] Holster',
    url: 'https://example.com/p/1',
    author: 'sam',
    created_utc: T - 120,
    ...over,
  })
  const batch = (...posts: unknown[]) => JSON.stringify({ posts })

  test('a good batch becomes posts in ForumPost terms', () => {
    const r = parsePushBatch(batch(post({ body: 'Price $40 shipped', flair: 'WTS' }), post({ id: 'b2', title: '  Spaced  ', flair: '' })), NOW)
    expect(r).toEqual({
      posts: [
        {
          id: 'abc_1-2',
          title: '[WTS] Holster',
          url: 'https://example.com/p/1',
          author: 'sam',
          createdAt: new Date((T - 120) * 1000),
          content: 'Price $40 shipped',
          flair: 'WTS',
        },
        { id: 'b2', title: 'Spaced', url: 'https://example.com/p/1', author: 'sam', createdAt: new Date((T - 120) * 1000), content: '', flair: null },
      ],
      received: 2,
    })
  })
  test('unknown fields are ignored and body/flair may be null', () => {
    const r = parsePushBatch(batch(post({ score: 3, body: null, flair: null })), NOW)
    expect('posts' in r && r.posts[0]).toMatchObject({ content: '', flair: null })
  })
  test('duplicates inside one batch collapse by id, the first kept', () => {
    const r = parsePushBatch(batch(post({ id: 'x', title: 'first' }), post({ id: 'y' }), post({ id: 'x', title: 'second' })), NOW)
    expect('posts' in r && r.posts.map((p) => [p.id, p.title])).toEqual([
      ['x', 'first'],
      ['y', '[WTS] Holster'],
    ])
    expect('received' in r && r.received).toBe(3)
  })
  test('100 posts are fine, 101 are 413', () => {
    const many = (n: number) => batch(...Array.from({ length: n }, (_, i) => post({ id: `p${i}` })))
    expect('posts' in parsePushBatch(many(100), NOW)).toBe(true)
    expect(parsePushBatch(many(101), NOW)).toMatchObject({ status: 413, field: 'posts' })
  })
  test('over 1 MB is 413 before anything is parsed, string or bytes', () => {
    const big = batch(post({ body: 'x'.repeat(1024 * 1024) }))
    expect(parsePushBatch(big, NOW)).toMatchObject({ status: 413, field: 'request' })
    expect(parsePushBatch(new TextEncoder().encode(big), NOW)).toMatchObject({ status: 413, field: 'request' })
    expect(parsePushBatch('{' + ' '.repeat(1024 * 1024), NOW)).toMatchObject({ status: 413 })
  })
  test('exactly 1 MB is accepted, one byte more is 413, and bytes are counted, not characters', () => {
    const MB = 1024 * 1024
    const pad = (body: string, bytes: number) => body + ' '.repeat(bytes - Buffer.byteLength(body))
    expect('posts' in parsePushBatch(pad(batch(post()), MB), NOW)).toBe(true)
    expect(parsePushBatch(pad(batch(post()), MB + 1), NOW)).toMatchObject({ status: 413, field: 'request' })
    // '€' is 3 bytes in UTF-8 and 1 UTF-16 unit: this text is well under 1 M characters but 1 MB + 1 in bytes
    const euros = pad(batch(post({ body: '€'.repeat(13_000) })), MB + 1)
    expect(euros.length).toBeLessThan(MB - 20_000)
    expect(parsePushBatch(euros, NOW)).toMatchObject({ status: 413 })
  })

  const bad: [string, string, string][] = [
    ['not JSON', '{"posts": [', 'request'],
    ['no posts key', JSON.stringify({ items: [] }), 'posts'],
    ['posts not an array', JSON.stringify({ posts: {} }), 'posts'],
    ['a top-level array', JSON.stringify([post()]), 'posts'],
    ['an empty batch', batch(), 'posts'],
    ['a post that is not an object', batch('hello'), 'posts[0]'],
    ['a missing id', batch(post({ id: undefined })), 'posts[0].id'],
    ['a numeric id', batch(post({ id: 12 })), 'posts[0].id'],
    ['an id with a space', batch(post({ id: 'a b' })), 'posts[0].id'],
    ['an id with a slash', batch(post({ id: '../x' })), 'posts[0].id'],
    ['an empty id', batch(post({ id: '' })), 'posts[0].id'],
    ['a 65-character id', batch(post({ id: 'a'.repeat(65) })), 'posts[0].id'],
    ['a missing title', batch(post({ title: undefined })), 'posts[0].title'],
    ['a blank title', batch(post({ title: '   ' })), 'posts[0].title'],
    ['a 301-character title', batch(post({ title: 't'.repeat(301) })), 'posts[0].title'],
    ['a title that is a number', batch(post({ title: 5 })), 'posts[0].title'],
    ['a missing url', batch(post({ url: undefined })), 'posts[0].url'],
    ['a relative url', batch(post({ url: '/r/x/comments/1' })), 'posts[0].url'],
    ['a javascript: url', batch(post({ url: 'javascript:alert(1)' })), 'posts[0].url'],
    ['an ftp url', batch(post({ url: 'ftp://example.com/x' })), 'posts[0].url'],
    ['a data: url', batch(post({ url: 'data:text/html,hi' })), 'posts[0].url'],
    ['a url over 2048 characters', batch(post({ url: `https://example.com/${'a'.repeat(2030)}` })), 'posts[0].url'],
    ['a missing author', batch(post({ author: undefined })), 'posts[0].author'],
    ['an empty author', batch(post({ author: '' })), 'posts[0].author'],
    ['a 65-character author', batch(post({ author: 'a'.repeat(65) })), 'posts[0].author'],
    ['a missing created_utc', batch(post({ created_utc: undefined })), 'posts[0].created_utc'],
    ['created_utc as a string', batch(post({ created_utc: String(T) })), 'posts[0].created_utc'],
    ['created_utc zero', batch(post({ created_utc: 0 })), 'posts[0].created_utc'],
    ['created_utc negative', batch(post({ created_utc: -5 })), 'posts[0].created_utc'],
    ['created_utc in milliseconds', batch(post({ created_utc: T * 1000 })), 'posts[0].created_utc'],
    ['created_utc 11 minutes ahead', batch(post({ created_utc: T + 660 })), 'posts[0].created_utc'],
    ['a body over 40,000 characters', batch(post({ body: 'b'.repeat(40_001) })), 'posts[0].body'],
    ['a body that is an object', batch(post({ body: { text: 'x' } })), 'posts[0].body'],
    ['a flair over 64 characters', batch(post({ flair: 'f'.repeat(65) })), 'posts[0].flair'],
    ['a flair that is a number', batch(post({ flair: 3 })), 'posts[0].flair'],
  ]
  test.each(bad)('%s is 400 naming %s', (_name, body, field) => {
    const r = parsePushBatch(body, NOW)
    expect(r).toMatchObject({ status: 400, field })
    expect('message' in r && r.message).toContain(field === 'request' ? 'JSON' : field)
  })

  test('the limits themselves are accepted', () => {
    const edge = post({
      id: 'a'.repeat(64),
      title: 't'.repeat(300),
      url: `http://example.com/${'a'.repeat(2048 - 19)}`,
      author: 'a'.repeat(64),
      body: 'b'.repeat(40_000),
      flair: 'f'.repeat(64),
      created_utc: T + 600,
    })
    expect(parsePushBatch(batch(edge), NOW)).toMatchObject({ posts: [{ id: 'a'.repeat(64) }] })
  })
  test('lengths count characters, not UTF-16 units: 300 emoji make a good title', () => {
    expect('posts' in parsePushBatch(batch(post({ title: '🔫'.repeat(300) })), NOW)).toBe(true)
  })

  test('the error names the first bad field: the first bad post, then the first bad field in it', () => {
    const r = parsePushBatch(batch(post(), post({ id: 'ok2', url: 'ftp://x', author: '' }), post({ id: '' })), NOW)
    expect(r).toEqual({ status: 400, field: 'posts[1].url', message: 'posts[1].url must be an http(s) URL.' })
    const fields = parsePushBatch(batch(post({ title: '', url: 'nope', author: '', created_utc: 'x', body: 1, flair: 2 })), NOW)
    expect(fields).toMatchObject({ field: 'posts[0].title' })
  })
  test('a bad field in a duplicate post is still reported', () => {
    expect(parsePushBatch(batch(post({ id: 'x' }), post({ id: 'x', title: '' })), NOW)).toMatchObject({ status: 400, field: 'posts[1].title' })
  })
})
