// `loc:` through the API (issue 25 §5): a term saved with POST /api/terms matches stored posts by the title's
// location tag (posts.location), the refusals come back as INVALID_TERM with the parser's words, and "Why didn't I
// get an alert?" says why a post was not matched (no location, another place, excluded).
import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { asAsync } from '../../src/db/async-sqlite'
import { posts, searchTerms } from '../../src/db/schema'
import { rowCount } from '../db-reads'
import { explainPost } from '../../src/explain/service'
import { storePosts } from '../../src/forums/store'
import { LOCATION_HELP } from '../../src/matching/location'
import { matchPosts } from '../../src/matches/runner'
import { forumPost } from '../fakes/forum-post'
import { call, createUserWithSession, makeApp, makeDeps, type TestDeps } from '../helpers'

let deps: TestDeps
let app: ReturnType<typeof makeApp>
beforeEach(async () => {
  deps = await makeDeps({})
  app = makeApp(deps)
})
afterEach(() => deps.close())

const publish = async (title: string) => {
  const stored = await storePosts(deps, [forumPost(title, { ageMs: 1000 })])
  await matchPosts(deps, stored, 'live')
  return stored[0]!
}

describe('loc: terms', () => {
  test('saved through the API, matched against stored posts by their location tag, explained', async () => {
    const u = await createUserWithSession(deps, { role: 'product+gd', subscriptionStatus: 'active' })
    const add = (term: string) => call(app, 'POST', '/api/terms', { cookie: u.cookie, json: { category: 'wts', term } })
    const tx = await add('loc:TX')
    expect(tx.status).toBe(201)
    expect(tx.body.term).toMatchObject({ term: 'loc:tx', note: null })
    expect((await add('aimpoint loc:"US-CA"')).status).toBe(201)
    expect((await add('holosun -loc:CA')).status).toBe(201)

    const texas = await publish('[USA-TX] [H] Aimpoint T2, Holosun 507C [W] PayPal')
    const california = await publish('[US-CA] [H] Aimpoint T2 [W] PayPal')
    const nowhere = await publish('[H] Holosun 508T [W] PayPal')
    const stored = await asAsync(deps.db).select({ redditId: posts.redditId, location: posts.location }).from(posts).orderBy(posts.id)
    expect(stored).toEqual([
      { redditId: texas.redditId, location: 'USA-TX' },
      { redditId: california.redditId, location: 'US-CA' },
      { redditId: nowhere.redditId, location: null },
    ])

    const matches = await call(app, 'GET', '/api/matches?category=wts', { cookie: u.cookie })
    expect(matches.status).toBe(200)
    expect((matches.body.matches as any[]).map((m) => [m.title, m.location]).sort((a, b) => String(a[0]).localeCompare(String(b[0])))).toEqual([
      ['[H] Holosun 508T [W] PayPal', null],
      ['[US-CA] [H] Aimpoint T2 [W] PayPal', 'US-CA'],
      ['[USA-TX] [H] Aimpoint T2, Holosun 507C [W] PayPal', 'USA-TX'],
    ])

    // the explainer: each term's verdict and reason, for each post
    const why = async (redditId: string) =>
      Object.fromEntries((await explainPost(deps, { id: u.userId, role: 'user' }, { url: redditId })).terms.map((t) => [t.term, [t.matched, t.reasons]]))
    expect(await why(texas.redditId)).toEqual({
      'loc:tx': [true, ['matched the fields (the seller is in USA-TX)']],
      'aimpoint loc:"us-ca"': [false, ['the seller is in USA-TX, not California (loc:USA-CA)']],
      'holosun -loc:ca': [true, ["matched 'holosun' in item 2"]],
    })
    expect(await why(california.redditId)).toEqual({
      'loc:tx': [false, ['the seller is in US-CA, not Texas (loc:USA-TX)']],
      'aimpoint loc:"us-ca"': [true, ["matched 'aimpoint' in item 1 (the seller is in US-CA)"]],
      'holosun -loc:ca': [false, ['excluded by -loc:USA-CA: the seller is in US-CA (California)']],
    })
    expect(await why(nowhere.redditId)).toEqual({
      'loc:tx': [false, ['the post names no location (loc:USA-TX: Texas)']],
      'aimpoint loc:"us-ca"': [false, ['the post names no location (loc:USA-CA: California)']],
      // a post without a location is never excluded by -loc:
      'holosun -loc:ca': [true, ["matched 'holosun' in item 1"]],
    })
  })

  test('a location the table does not know is refused with the help', async () => {
    const u = await createUserWithSession(deps, { role: 'product+gd', subscriptionStatus: 'active' })
    const bad = await call(app, 'POST', '/api/terms', { cookie: u.cookie, json: { category: 'wts', term: 'gpu loc:zz' } })
    expect(bad.status).toBe(400)
    expect(bad.body.error.code).toBe('INVALID_TERM')
    expect(JSON.stringify(bad.body.error)).toContain(`Unknown location \\"zz\\" in loc:zz: ${LOCATION_HELP.replace(/"/g, '\\"')}`)
    expect(await rowCount(deps, searchTerms)).toBe(0)
  })
})
