// Features that need a Reddit key say so without one (issue 24 §6): a flair:/trades>= term is saved with a note
// that says why it cannot match on this installation, and the 'Wait before email and push' setting says that
// re-checks come only from later polls of the feed. With a key nothing changes.
import { afterEach, describe, expect, test } from 'bun:test'
import { explainPost } from '../../src/explain/service'
import { KEY_ONLY_TEXTS, keyOnlyNote } from '../../src/forums/key-only'
import { storePosts } from '../../src/forums/store'
import { addTerm } from '../../src/terms/service'
import { forumPost } from '../fakes/forum-post'
import { call, createUserWithSession, makeApp, makeDeps, type TestDeps } from '../helpers'

const KEY = { REDDIT_CLIENT_ID: 'app-id', REDDIT_CLIENT_SECRET: 'app-secret' }
let deps: TestDeps | null = null
afterEach(() => {
  deps?.close()
  deps = null
})

async function setup(env: Record<string, string>) {
  const d = makeDeps(env)
  deps = d
  const app = makeApp(d)
  const user = await createUserWithSession(d, { role: 'product+gd', subscriptionStatus: 'active' })
  return { app, cookie: user.cookie }
}

describe('terms that need the key', () => {
  test('without a key: saved, with a note on the answer and in the list; other terms have none', async () => {
    const { app, cookie } = await setup({})
    const flair = await call(app, 'POST', '/api/terms', { cookie, json: { category: 'wts', term: 'rmr flair:wts' } })
    expect(flair.status).toBe(201)
    expect(flair.body.term.note).toBe(KEY_ONLY_TEXTS.flair)
    expect(flair.body.term.note).toContain('cannot match on this installation')
    const trades = await call(app, 'POST', '/api/terms', { cookie, json: { category: 'wts', term: 'holosun trades>=10' } })
    expect(trades.body.term.note).toBe(KEY_ONLY_TEXTS.trades)
    const plain = await call(app, 'POST', '/api/terms', { cookie, json: { category: 'wts', term: 'aimpoint t2' } })
    expect(plain.body.term.note).toBeNull()
    const list = await call(app, 'GET', '/api/terms?category=wts', { cookie })
    expect(list.body.terms.map((t: any) => [t.term, t.note === null ? null : t.note.slice(0, 6)])).toEqual([
      ['rmr flair:wts', 'flair:'],
      ['holosun trades>=10', 'trades'],
      ['aimpoint t2', null],
    ])
    // an edit into a key-only term gets the note, and out of one loses it
    const edited = await call(app, 'PATCH', `/api/terms/${plain.body.term.id}`, { cookie, json: { term: 'aimpoint t2 -flair:sold' } })
    expect(edited.body.term.note).toBe(KEY_ONLY_TEXTS.notFlair)
    const back = await call(app, 'PATCH', `/api/terms/${flair.body.term.id}`, { cookie, json: { term: 'rmr' } })
    expect(back.body.term.note).toBeNull()
  })

  test('with a key: the same terms carry no note', async () => {
    const { app, cookie } = await setup(KEY)
    const flair = await call(app, 'POST', '/api/terms', { cookie, json: { category: 'wts', term: 'rmr flair:wts' } })
    expect(flair.status).toBe(201)
    expect(flair.body.term.note).toBeNull()
    const trades = await call(app, 'POST', '/api/terms', { cookie, json: { category: 'wts', term: 'holosun trades>=10' } })
    expect(trades.body.term.note).toBeNull()
    expect((await call(app, 'GET', '/api/terms?category=wts', { cookie })).body.terms.map((t: any) => t.note)).toEqual([null, null])
  })

  test('the note names every key-only part of a term', () => {
    expect(keyOnlyNote('rmr flair:wts trades>=5', false)).toBe(`${KEY_ONLY_TEXTS.flair} ${KEY_ONLY_TEXTS.trades}`)
    expect(keyOnlyNote('rmr | sro flair:wts', false)).toBe(KEY_ONLY_TEXTS.flair)
    expect(keyOnlyNote('rmr flair:wts', true)).toBeNull()
    expect(keyOnlyNote('author:bob rmr', false)).toBeNull()
    expect(keyOnlyNote('"unbalanced', false)).toBeNull()
  })
})

describe("'Why didn't I get an alert?' names the missing key", () => {
  for (const [env, expected] of [
    [{}, true],
    [KEY, false],
  ] as const)
    test(expected ? 'without a key: the note joins the reasons' : 'with a key: the matcher reasons only', async () => {
      await setup(env)
      const d = deps!
      const user = await createUserWithSession(d, { role: 'product+gd', subscriptionStatus: 'active' })
      const full = { role: 'product+gd' as const, subscriptionStatus: 'active', accessExpiresAt: null }
      await addTerm(d, user.userId, full, 'wts', 'rmr trades>=5')
      await addTerm(d, user.userId, full, 'wts', 'holosun')
      const [post] = await storePosts(d, [forumPost('[WTS] Trijicon RMR Type 2 - $450', { now: d.now().getTime() + 60_000 })])
      const why = await explainPost(d, { id: user.userId, role: 'user' }, { url: post!.redditId })
      const reasons = Object.fromEntries(why.terms.map((t) => [t.term, t.reasons]))
      expect(reasons['rmr trades>=5']).toEqual(
        expected
          ? ["the seller's flair shows no confirmed trades (trades>=5)", KEY_ONLY_TEXTS.trades]
          : ["the seller's flair shows no confirmed trades (trades>=5)"],
      )
      expect(reasons.holosun).toEqual(["needs the word 'holosun' — not in the title or body"])
    })
})

describe("'Wait before email and push' without a key", () => {
  test('says that re-checks come only from later polls of the feed; nothing with a key', async () => {
    const { app, cookie } = await setup({})
    const got = await call(app, 'GET', '/api/notifications/hold', { cookie })
    expect(got.body).toEqual({ hold_seconds: 0, max_seconds: 120, recheck_note: KEY_ONLY_TEXTS.hold })
    expect(got.body.recheck_note).toContain('[SOLD]')
    const put = await call(app, 'PUT', '/api/notifications/hold', { cookie, json: { hold_seconds: 30 }, headers: { origin: deps!.config.appUrl } })
    expect(put.body).toEqual({ hold_seconds: 30, max_seconds: 120, recheck_note: KEY_ONLY_TEXTS.hold })
    deps!.close()
    const keyed = await setup(KEY)
    expect((await call(keyed.app, 'GET', '/api/notifications/hold', { cookie: keyed.cookie })).body).toEqual({
      hold_seconds: 0,
      max_seconds: 120,
      recheck_note: null,
    })
  })
})
