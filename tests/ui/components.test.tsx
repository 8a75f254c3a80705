// Components of the subscriber app rendered in happy-dom: toasts, the search-terms dialog, the
// pagination control and the match card.
import { parseTerm } from '../../src/matching/parse'
import { highlight } from '../../src/matching/highlight'
import { GlobalRegistrator } from '@happy-dom/global-registrator'
import { afterAll, afterEach, beforeAll, describe, expect, jest, test } from 'bun:test'

GlobalRegistrator.register({ url: 'http://localhost:3000/' })
const { act } = await import('react')
const { createRoot } = await import('react-dom/client')
const { toast, toasts, dismissToast, TOAST_LIMIT } = await import('../../ui/toast')
const { Toaster } = await import('../../ui/components/Toaster')
const { SearchTermsDialog, dialogTitle } = await import('../../ui/components/SearchTermsDialog')
const { Pagination } = await import('../../ui/components/Pagination')
const { MatchCard } = await import('../../ui/components/MatchCard')
const { emptyText } = await import('../../ui/components/MatchList')
const { terms, termLimits } = await import('../../ui/terms')

;(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true
let container: HTMLElement
let root: ReturnType<typeof createRoot>
const realFetch = globalThis.fetch

beforeAll(() => {
  // The dialog loads terms on open: answer from the signal's current state. Saving a term: the server's check, as
  // src/terms answers it (400 INVALID_TERM with the parser's message; the web app no longer parses terms itself).
  globalThis.fetch = (async (_input: unknown, init: RequestInit = {}) => {
    if (init.method === 'POST') {
      const parsed = parseTerm((JSON.parse(String(init.body)) as { term: string }).term)
      if (!parsed.ok)
        return new Response(JSON.stringify({ error: { code: 'INVALID_TERM', message: parsed.error, title: 'Invalid search term' } }), {
          status: 400,
          headers: { 'content-type': 'application/json' },
        })
    }
    return new Response(JSON.stringify({ terms: terms.value.wts ?? [], limit: 10 }), { headers: { 'content-type': 'application/json' } })
  }) as never
})
afterAll(async () => {
  globalThis.fetch = realFetch
  await GlobalRegistrator.unregister()
})
async function render(node: React.ReactNode) {
  container = document.createElement('div')
  document.body.appendChild(container)
  root = createRoot(container)
  await act(async () => root.render(node))
}
afterEach(async () => {
  await act(async () => root?.unmount())
  container?.remove()
  toasts.value = []
})

describe('toasts', () => {
  test('at most 10 show at once, newest first', async () => {
    await render(<Toaster />)
    await act(async () => {
      for (let i = 1; i <= 12; i++) toast({ title: `Toast ${i}`, duration: Infinity })
    })
    const items = document.querySelectorAll('li.toast')
    expect(items.length).toBe(TOAST_LIMIT)
    expect(items[0]!.textContent).toContain('Toast 12')
  })

  test('a dismissed toast closes at once and leaves the list 5 s later; the default lasts 5 s', async () => {
    jest.useFakeTimers()
    try {
      await render(<Toaster />)
      let id = 0
      await act(async () => {
        id = toast({ title: 'Saved' })
      })
      await act(async () => dismissToast(id))
      expect(document.querySelectorAll('li.toast').length).toBe(0)
      expect(toasts.value.length).toBe(1)
      await act(async () => jest.advanceTimersByTime(5000))
      expect(toasts.value.length).toBe(0)
      await act(async () => {
        toast({ title: 'Auto' })
      })
      await act(async () => jest.advanceTimersByTime(5000))
      expect(document.querySelectorAll('li.toast').length).toBe(0)
    } finally {
      jest.useRealTimers()
    }
  })

  test('F8 focuses the toast region', async () => {
    await render(<Toaster />)
    await act(async () => {
      window.dispatchEvent(new KeyboardEvent('keydown', { key: 'F8' }))
    })
    expect(document.activeElement).toBe(document.querySelector('ol.toast-list'))
  })

  test('a destructive toast is announced as an alert', async () => {
    await render(<Toaster />)
    await act(async () => {
      toast({ title: 'Error', description: 'Failed to archive match', variant: 'destructive', duration: Infinity })
    })
    expect(document.querySelector('ol.toast-list > li [role="alert"]')!.textContent).toContain('Failed to archive match')
  })

  test('the toast list keeps list semantics: its items are plain list items, the live role is inside each (axe: list, listitem)', async () => {
    await render(<Toaster />)
    await act(async () => {
      toast({ title: 'Saved', duration: Infinity })
      toast({ title: 'Error', description: 'Failed', variant: 'destructive', duration: Infinity })
    })
    const items = [...document.querySelector('ol.toast-list')!.children]
    expect(items.length).toBeGreaterThanOrEqual(2)
    for (const li of items) {
      expect(li.tagName).toBe('LI')
      expect(li.getAttribute('role')).toBeNull()
    }
    expect(document.querySelectorAll('ol.toast-list > li > [role="status"]').length).toBeGreaterThanOrEqual(1)
  })
})

describe('search-terms dialog', () => {
  /** Types a term into the dialog's field and submits the form. */
  async function submitTerm(text: string) {
    const input = container.querySelector('input[placeholder="Enter search term"]') as HTMLInputElement
    await act(async () => {
      const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!
      setter.call(input, text)
      input.dispatchEvent(new Event('input', { bubbles: true }))
    })
    await act(async () => {
      container.querySelector('form')!.dispatchEvent(new Event('submit', { bubbles: true, cancelable: true }))
    })
  }

  test.each([
    ['gd', 'Search Gundeals Posts'],
    ['wts', 'Search WTS Posts'],
    ['wtb', 'Search WTB Posts'],
    [null, 'Add Search Term'],
  ])('title for %p is %p', (category, title) => expect(dialogTitle(category)).toBe(title))

  test('shows the chips, the counter, and explains a malformed term inline without saving it', async () => {
    terms.value = { ...terms.value, wts: [{ id: 1, term: 'rmr', category: 'wts', createdAt: '' }] }
    termLimits.value = { ...termLimits.value, wts: 10 }
    await render(<SearchTermsDialog category="wts" open onClose={() => {}} />)
    expect(container.querySelector('h3')!.textContent).toBe('Search WTS Posts')
    expect(container.querySelector('[data-testid="term-counter"]')!.textContent).toBe('1 of 10 terms used')
    expect([...container.querySelectorAll('.chip .chip-text')].map((c) => c.textContent)).toEqual(['rmr'])
    await submitTerm('-airsoft')
    expect(container.querySelector('.term-error')!.textContent).toContain('at least one word')
  })

  test('the syntax help explains loc:, and a location the parser does not know is refused inline (issue 25 §5)', async () => {
    terms.value = { ...terms.value, wts: [] }
    await render(<SearchTermsDialog category="wts" open onClose={() => {}} />)
    const help = [...container.querySelectorAll('details li')].find((li) => li.querySelector('code')?.textContent === 'gpu loc:TX')
    expect(help?.textContent).toContain('loc:CAN Canada (loc:CA is California)')
    expect(help?.textContent).toContain('never excluded by -loc:')
    await submitTerm('gpu loc:zz')
    expect(container.querySelector('.term-error')!.textContent).toContain('Unknown location "zz" in loc:zz')
  })

  test('Clear All asks first with the spec texts', async () => {
    terms.value = { ...terms.value, wts: [{ id: 1, term: 'rmr', category: 'wts', createdAt: '' }] }
    await render(<SearchTermsDialog category="wts" open onClose={() => {}} />)
    const clear = [...container.querySelectorAll('button')].find((b) => b.textContent === 'Clear All')!
    await act(async () => clear.click())
    expect(container.textContent).toContain('Clear all search terms?')
    expect(container.textContent).toContain('Are you sure you want to clear all WTS search terms? This action cannot be undone.')
  })
})

describe('pagination control', () => {
  test('page 5 of 12 shows first, neighbours, last and two ellipses', async () => {
    await render(<Pagination page={5} pages={12} onPage={() => {}} />)
    const labels = [...container.querySelectorAll('nav.pagination > *')].map((e) => e.textContent)
    expect(labels).toEqual(['Previous', '1', '…', '4', '5', '6', '…', '12', 'Next'])
  })
  test('a single page shows no control', async () => {
    await render(<Pagination page={1} pages={1} onPage={() => {}} />)
    expect(container.querySelector('nav')).toBeNull()
  })
})

describe('match card and list texts', () => {
  test('the card highlights the matched words, names the author and prefers the post time', async () => {
    const post = new Date(2026, 10, 20, 9, 5)
    await render(
      <MatchCard
        match={{
          id: 1,
          title: '[WTS] Trijicon RMR Type 2',
          url: 'https://reddit.example/p',
          createdAt: new Date(2026, 10, 21).toISOString(),
          postCreatedAt: post.toISOString(),
          matchedTerms: ['rmr'],
          isNew: true,
          category: 'wts',
          author: 'seller',
          // what the server sends (matchItem: highlight() of the title with the matched terms)
          titleParts: highlight('[WTS] Trijicon RMR Type 2', ['rmr']),
        }}
        onRead={() => {}}
      />,
    )
    expect(container.querySelector('mark')!.textContent).toBe('RMR')
    expect(container.textContent).toContain('u/seller')
    expect(container.querySelector('time')!.textContent).toContain('Nov 20, 9:05 AM')
    expect(container.querySelector('a')!.getAttribute('target')).toBe('_blank')
  })
  test("the seller's location from the title is a small chip beside the author; none without one", async () => {
    const base = {
      id: 3,
      title: '[USA-TX] [H] RMR [W] PayPal',
      url: 'https://reddit.example/l',
      createdAt: new Date(2026, 10, 21).toISOString(),
      isNew: false,
      category: 'wts' as const,
      author: 'seller',
    }
    await render(<MatchCard match={{ ...base, location: 'USA-TX' }} />)
    const chip = container.querySelector('[data-testid="location-chip"]')!
    expect(chip.textContent).toBe('Location: USA-TX')
    expect(chip.closest('.match-meta')).not.toBeNull()
    await act(async () => root.render(<MatchCard match={{ ...base, location: null }} />))
    expect(container.querySelector('[data-testid="location-chip"]')).toBeNull()
  })
  test('a reposted listing says so with its dates; a price drop and the price history are spelled out', async () => {
    const at = (d: number) => new Date(2026, 10, d, 12).toISOString()
    const base = { id: 2, title: '[WTS] Glock 19 Gen 5 - $400', url: 'https://reddit.example/q', createdAt: at(23), isNew: true, category: 'wts' as const }
    await render(
      <MatchCard
        match={{
          ...base,
          repost: { firstSeenAt: at(20), postedAt: [at(20), at(22), at(23)] },
          priceHistory: [
            { price: 450, at: at(20) },
            { price: 400, at: at(23) },
          ],
          priceDrop: { from: 450, to: 400 },
        }}
      />,
    )
    const line = container.querySelector('[data-testid="listing-line"]')!
    expect(line.textContent).toContain('Reposted · first posted Nov 20 · reposted Nov 22, Nov 23')
    expect(line.querySelector('.price-drop')!.textContent).toBe('Price drop: $450 → $400')
    expect(line.textContent).toContain('Price history: $450 (Nov 20) → $400 (Nov 23)')
    await act(async () => root.render(<MatchCard match={{ ...base, repost: null, priceHistory: [], priceDrop: null }} />))
    expect(container.querySelector('[data-testid="listing-line"]')).toBeNull()
  })
  test('the three empty states', () => {
    expect(emptyText(null)).toBe('No matches found')
    expect(emptyText(0)).toBe("You haven't set up any search terms yet. Add some search terms to start seeing matches.")
    expect(emptyText(2)).toBe("No matches found for your search terms. We'll notify you when matches are found.")
  })
})
