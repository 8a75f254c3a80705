// Admin → Logs → Sources in the UI (issue 25 §1), rendered in happy-dom against a stand-in fetch: the pure helpers
// of ./ui/pages/admin/logs/useSources.ts (presets by forum and kind, what a preset fills, what is sent, the API's
// field errors), the add form (a preset fills the fields, an INVALID_SOURCE error sits under its field, 'Fetch now'
// shows the posts and their classification, a push source's secret once) and the source chip on match and post cards.
import { GlobalRegistrator } from '@happy-dom/global-registrator'
import { afterAll, afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { PRESETS } from '../../src/sources/presets'
import type { SourceView } from '../../src/sources/view'

GlobalRegistrator.register({ url: 'http://localhost:3000/admin/logs' })
const { act } = await import('react')
const { createRoot } = await import('react-dom/client')
const { ApiError } = await import('../../ui/client')
const { toasts } = await import('../../ui/toast')
const { addressText, applyPreset, draftBody, EMPTY_DRAFT, formError, outcomeText, presetsFor } = await import('../../ui/pages/admin/logs/useSources')
const { SourcesCard } = await import('../../ui/pages/admin/logs/SourcesCard')
const { MatchCard } = await import('../../ui/components/MatchCard')
const { PostCard } = await import('../../ui/components/PostCard')

;(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true
const realFetch = globalThis.fetch
let container: HTMLElement
let root: ReturnType<typeof createRoot>
let requests: { method: string; path: string; body: any }[]
let answer: (method: string, path: string) => { status?: number; body: unknown }

const health = (over: Partial<SourceView['health']> = {}): SourceView['health'] => ({
  state: 'ok',
  summary: 'OK: the last read brought 2 new posts',
  lastPolledAt: '2026-11-27T10:00:00.000Z',
  lastOkAt: '2026-11-27T10:00:00.000Z',
  lastError: null,
  failures: 0,
  lastPosts: 2,
  ...over,
})
const source = (over: Partial<SourceView>): SourceView => ({
  id: 1,
  forum: 'accessories',
  kind: 'reddit',
  name: 'r/GunAccessoriesForSale',
  url: null,
  subreddits: ['GunAccessoriesForSale'],
  preset: null,
  presetTitle: null,
  enabled: true,
  ingestUrl: null,
  health: health(),
  createdAt: '2026-11-27T09:00:00.000Z',
  updatedAt: null,
  ...over,
})
const LIST = {
  sources: [
    source({}),
    source({
      id: 2,
      kind: 'feed',
      name: 'Optics board',
      url: 'https://forum.example/forums/optics.12/index.rss',
      subreddits: [],
      health: health({ state: 'failing', summary: 'Failing (3 in a row): 403 Forbidden', failures: 3 }),
    }),
    source({ id: 3, forum: 'deals', name: 'r/gundeals', subreddits: ['gundeals'] }),
  ],
  politenessSeconds: 60,
  minPolitenessSeconds: 15,
  presets: PRESETS.presets,
  pairs: PRESETS.pairs,
  forumPreset: 'spec',
}

beforeEach(() => {
  requests = []
  answer = () => ({ body: LIST })
  globalThis.fetch = (async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const path = String(input)
    const method = init.method ?? 'GET'
    requests.push({ method, path, body: init.body ? JSON.parse(String(init.body)) : undefined })
    const { status = 200, body } = answer(method, path)
    return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })
  }) as typeof fetch
})
afterEach(async () => {
  await act(async () => root?.unmount())
  container?.remove()
  globalThis.fetch = realFetch
  toasts.value = []
})
afterAll(async () => {
  await GlobalRegistrator.unregister()
})

async function render(node: React.ReactNode) {
  container = document.createElement('div')
  document.body.appendChild(container)
  root = createRoot(container)
  await act(async () => root.render(node))
  await act(async () => new Promise((r) => setTimeout(r, 0)))
}

/** Sets a controlled input's or select's value as a user would (React tracks it; the native setter bypasses that). */
async function set(el: HTMLInputElement | HTMLSelectElement, value: string) {
  await act(async () => {
    const proto = el instanceof HTMLSelectElement ? HTMLSelectElement.prototype : HTMLInputElement.prototype
    Object.getOwnPropertyDescriptor(proto, 'value')!.set!.call(el, value)
    el.dispatchEvent(new Event(el instanceof HTMLSelectElement ? 'change' : 'input', { bubbles: true }))
  })
}
const byLabel = <T extends HTMLElement>(scope: HTMLElement, text: string): T => {
  const label = [...scope.querySelectorAll('label')].find((l) => l.textContent === text)
  if (!label) throw new Error(`no label "${text}"`)
  return scope.querySelector(`#${label.htmlFor}`) as T
}
const button = (scope: HTMLElement, text: string) => [...scope.querySelectorAll('button')].find((b) => b.textContent === text)!
async function click(el: HTMLElement) {
  await act(async () => {
    el.click()
    await new Promise((r) => setTimeout(r, 0))
  })
}

describe('the form helpers', () => {
  test('the preset picker offers the presets of the chosen forum and kind only', () => {
    const names = (forum: 'accessories' | 'deals', kind: 'reddit' | 'feed' | 'push') => presetsFor(PRESETS.presets, forum, kind).map((p) => p.name)
    expect(names('accessories', 'reddit')).toContain('mechmarket')
    expect(names('accessories', 'reddit')).not.toContain('gundeals')
    expect(names('deals', 'reddit')).toContain('gundeals')
    expect(names('accessories', 'feed')).toEqual(['forum-classifieds'])
    expect(names('accessories', 'push')).toEqual([])
  })
  test('choosing a preset fills the address and the name; choosing none keeps what was typed', () => {
    const mm = PRESETS.presets.find((p) => p.name === 'mechmarket')!
    expect(applyPreset({ ...EMPTY_DRAFT, kind: 'reddit' }, mm)).toEqual({
      ...EMPTY_DRAFT,
      kind: 'reddit',
      preset: 'mechmarket',
      subreddits: 'mechmarket',
      name: 'Mechmarket',
    })
    const cl = PRESETS.presets.find((p) => p.name === 'forum-classifieds')!
    expect(applyPreset(EMPTY_DRAFT, cl).url).toBe('https://{board}/forums/{slug}.{id}/index.rss')
    expect(applyPreset({ ...EMPTY_DRAFT, url: 'https://x.example/f.rss', preset: 'forum-classifieds' }, null)).toEqual({
      ...EMPTY_DRAFT,
      url: 'https://x.example/f.rss',
    })
  })
  test('only the address of the kind is sent, and an empty name lets the server choose', () => {
    const d = { ...EMPTY_DRAFT, url: ' https://x.example/f.rss ', subreddits: 'leftover' }
    expect(draftBody(d)).toEqual({ forum: 'accessories', kind: 'feed', preset: null, url: 'https://x.example/f.rss' })
    expect(draftBody({ ...d, kind: 'reddit', subreddits: 'a, b', name: ' Mine ' })).toEqual({
      forum: 'accessories',
      kind: 'reddit',
      preset: null,
      name: 'Mine',
      subreddits: 'a, b',
    })
    expect(draftBody({ ...d, kind: 'push' })).toEqual({ forum: 'accessories', kind: 'push', preset: null })
  })
  test("the API's 400 INVALID_SOURCE names its field; other errors have none", () => {
    const body = { error: { code: 'INVALID_SOURCE', message: 'url: must be an http(s) URL', field: 'url' } }
    expect(formError(new ApiError(400, 'INVALID_SOURCE', 'url: must be an http(s) URL', body))).toEqual({
      field: 'url',
      message: 'url: must be an http(s) URL',
    })
    expect(formError(new ApiError(400, 'INVALID_SOURCE', 'x', { error: { details: { field: 'name' } } })).field).toBe('name')
    expect(formError(new ApiError(502, 'SOURCE_FETCH_FAILED', 'the feed answered 404', null))).toEqual({ field: null, message: 'the feed answered 404' })
  })
  test("a source's address and a 'Fetch now' in words", () => {
    expect(addressText(source({ subreddits: ['a', 'b'] }))).toBe('r/a, r/b')
    expect(addressText(source({ kind: 'push', ingestUrl: 'https://dibs.example/api/ingest/4' }))).toBe('POST https://dibs.example/api/ingest/4')
    const o = { status: 'ok' as const, fetched: 3, new: 2, matches: 1, error: null, retryAt: null, posts: [] }
    expect(outcomeText(o, 'feed')).toBe('Read 3 posts: 2 new stored, 1 match.')
    expect(outcomeText(o, 'reddit')).toBe('Read 3 posts; the next scan stores and matches the new ones.')
    expect(outcomeText({ ...o, status: 'failed', error: 'blocked' }, 'feed')).toBe('Fetch failed: blocked')
    expect(outcomeText({ ...o, status: 'not_modified' }, 'feed')).toBe('Nothing new: the feed has not changed since the last read.')
  })
})

describe('the Sources panel', () => {
  test("lists both forums' sources with address, health and failures", async () => {
    await render(<SourcesCard />)
    const items = [...container.querySelectorAll('[data-testid="source-item"]')] as HTMLElement[]
    expect(items.map((i) => i.querySelector('h4')!.textContent)).toEqual(['r/GunAccessoriesForSale', 'Optics board', 'r/gundeals'])
    expect(items[1]!.textContent).toContain('https://forum.example/forums/optics.12/index.rss')
    expect(items[1]!.querySelector('[data-testid="source-health-summary"]')!.textContent).toBe('Failing (3 in a row): 403 Forbidden')
    expect(items[1]!.querySelector('[role="switch"]')!.getAttribute('aria-label')).toBe('Enabled: Optics board')
    expect(container.querySelector('#sources-deals')!.textContent).toBe('Deals forum')
  })
  test("a preset fills the add form; an INVALID_SOURCE error sits under its field; 'Fetch now' shows the posts as classified", async () => {
    await render(<SourcesCard />)
    const form = container.querySelector('[data-testid="add-source-form"]') as HTMLElement
    await set(byLabel(form, 'Kind'), 'reddit')
    await set(byLabel(form, 'Preset'), 'mechmarket')
    expect(byLabel<HTMLInputElement>(form, 'Subreddits').value).toBe('mechmarket')
    expect(byLabel<HTMLInputElement>(form, 'Name (optional)').value).toBe('Mechmarket')
    answer = (method, path) =>
      path === '/api/admin/sources/preview'
        ? { status: 400, body: { error: { code: 'INVALID_SOURCE', message: 'subreddits: "a b c" is not a subreddit name', field: 'subreddits' } } }
        : { body: LIST }
    await click(button(form, 'Fetch now'))
    const subs = byLabel<HTMLInputElement>(form, 'Subreddits')
    expect(subs.getAttribute('aria-invalid')).toBe('true')
    const errorId = subs.getAttribute('aria-describedby')!.split(' ')[0]!
    expect(form.querySelector(`#${errorId}`)!.textContent).toBe('subreddits: "a b c" is not a subreddit name')
    expect(requests.at(-1)!.body).toEqual({ forum: 'accessories', kind: 'reddit', preset: 'mechmarket', name: 'Mechmarket', subreddits: 'mechmarket' })
    // typing in the field clears its error; a failed fetch with no field is said under the address too
    await set(subs, 'mechmarket, keyboards')
    expect(subs.getAttribute('aria-invalid')).toBeNull()
    answer = (method, path) =>
      path === '/api/admin/sources/preview'
        ? { status: 429, body: { error: { code: 'SOURCE_FETCH_FAILED', message: "Reddit's request budget is spent for now; try again in 30 s." } } }
        : { body: LIST }
    await click(button(form, 'Fetch now'))
    expect(form.querySelector('#source-new-subreddits-error')!.textContent).toBe("Reddit's request budget is spent for now; try again in 30 s.")
    const post = {
      id: 'x1',
      title: '[US-CA] [H] GMK Olivia++ [W] PayPal',
      url: 'https://reddit.example/x1',
      author: 'a',
      createdAt: '2026-11-27T10:00:00.000Z',
    }
    answer = (method, path) =>
      path === '/api/admin/sources/preview'
        ? {
            body: {
              fetched: 1,
              title: 'r/mechmarket',
              software: 'reddit',
              notes: [],
              posts: [{ ...post, category: 'wts', classifiedAs: 'WTS (for sale)', state: 'open', price: 260, location: 'US-CA', error: null }],
            },
          }
        : { body: LIST }
    await click(button(form, 'Fetch now'))
    const rows = [...form.querySelectorAll('[data-testid="source-posts"] tbody tr')].map((r) => [...r.querySelectorAll('td')].map((td) => td.textContent))
    expect(rows).toEqual([['[US-CA] [H] GMK Olivia++ [W] PayPal', 'WTS (for sale)', '$260', 'US-CA', 'open']])
    expect(form.querySelector('[data-testid="source-preview"] [role="status"]')!.textContent).toStartWith('Read 1 post from r/mechmarket (Reddit).')
  })
  test("after adding a push source its secret shows once, with the ingest URL; 'Done' hides it for good", async () => {
    await render(<SourcesCard />)
    const form = container.querySelector('[data-testid="add-source-form"]') as HTMLElement
    await set(byLabel(form, 'Kind'), 'push')
    expect([...form.querySelectorAll('label')].map((l) => l.textContent)).not.toContain('Preset')
    expect(button(form, 'Fetch now')).toBeUndefined()
    const pushed = source({ id: 9, kind: 'push', name: 'My script', subreddits: [], ingestUrl: 'https://dibs.example/api/ingest/9' })
    answer = (method) => (method === 'POST' ? { status: 201, body: { source: pushed, secret: 'whsec_abc123', ingested: null } } : { body: LIST })
    await click(button(form, 'Save'))
    const secret = container.querySelector('[data-testid="source-secret"]') as HTMLElement
    expect(secret.textContent).toContain('whsec_abc123')
    expect(secret.textContent).toContain('it will not be shown again')
    expect(secret.textContent).toContain('https://dibs.example/api/ingest/9')
    expect(button(secret, 'Copy secret')).toBeTruthy()
    await click(button(secret, 'Done, I copied it'))
    expect(container.querySelector('[data-testid="source-secret"]')).toBeNull()
    expect(container.textContent).not.toContain('whsec_abc123')
  })
})

describe('the forum pair', () => {
  test('the pair in force is chosen and cannot be switched to again; switching says what changed and reloads', async () => {
    await render(<SourcesCard />)
    const form = container.querySelector('.source-pair') as HTMLElement
    const select = byLabel<HTMLSelectElement>(form, 'Ready pair of forums')
    expect(select.value).toBe('spec')
    expect([...select.options].find((o) => o.value === 'spec')!.textContent).toEndWith('(in force)')
    expect(button(form, 'Switch forums')!.disabled).toBe(true)
    await set(select, 'hardware')
    expect(button(form, 'Switch forums')!.disabled).toBe(false)
    answer = (method, path) =>
      method === 'PUT' && path === '/api/admin/forum-preset'
        ? { body: { pair: 'hardware', added: ['Hardwareswap', 'BuildAPCSales'], enabled: [], disabled: ['r/GunAccessoriesForSale', 'r/gundeals'] } }
        : { body: LIST }
    const before = requests.length
    await click(button(form, 'Switch forums'))
    expect(requests.slice(before)[0]).toEqual({ method: 'PUT', path: '/api/admin/forum-preset', body: { pair: 'hardware' } })
    expect(requests.slice(before).some((r) => r.method === 'GET' && r.path === '/api/admin/sources')).toBe(true)
    answer = (method) =>
      method === 'PUT' ? { status: 400, body: { error: { code: 'INVALID_SOURCE', message: 'pair: "x" is not a preset pair', field: 'pair' } } } : { body: LIST }
    await set(select, 'keyboards')
    await click(button(form, 'Switch forums'))
    expect(form.querySelector('#pair-error')!.textContent).toBe('pair: "x" is not a preset pair')
    expect(select.getAttribute('aria-invalid')).toBe('true')
  })
})

describe('the source on match and post cards', () => {
  test('a match card and a live-feed post name their source beside the location; nothing without one', async () => {
    const base = {
      id: 3,
      title: '[US-CA] [H] GMK Olivia [W] PayPal',
      url: 'https://reddit.example/l',
      createdAt: new Date(2026, 10, 21).toISOString(),
      isNew: false,
      category: 'wts' as const,
      author: 'seller',
      location: 'US-CA',
    }
    await render(<MatchCard match={{ ...base, sourceName: 'Mechmarket' }} />)
    const chip = container.querySelector('[data-testid="source-chip"]')!
    expect(chip.textContent).toBe('Source: Mechmarket')
    expect(chip.previousElementSibling!.getAttribute('data-testid')).toBe('location-chip')
    await act(async () => root.render(<MatchCard match={{ ...base, sourceName: null }} />))
    expect(container.querySelector('[data-testid="source-chip"]')).toBeNull()
    const post = {
      id: 1,
      redditId: 'f2_ab',
      title: 'WTS: Aimpoint T2 - $650',
      url: 'https://forum.example/threads/1/',
      linkUrl: null,
      content: '',
      author: 'RangeRat',
      subreddit: 'forum.example',
      forum: 'product',
      postType: 'wts' as const,
      createdAt: new Date(2026, 10, 21).toISOString(),
      state: 'open' as const,
      location: null,
      source: 'Optics board',
    }
    await act(async () => root.render(<PostCard post={post} />))
    expect(container.querySelector('[data-testid="source-chip"]')!.textContent).toBe('Source: Optics board')
    await act(async () => root.render(<PostCard post={{ ...post, source: null }} />))
    expect(container.querySelector('[data-testid="source-chip"]')).toBeNull()
  })
})
