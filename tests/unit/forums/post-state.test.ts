// The lifecycle detector and the listing price, as tables: what Reddit shows → the state we store.
import { describe, expect, test } from 'bun:test'
import { detectPostState, detectPrice, asPostState, isOpen, type StateInput } from '../../../src/forums/post-state'

const T = '[WTS] Trijicon RMR Type 2 - $400'

describe('detectPostState', () => {
  const cases: [string, StateInput, string][] = [
    ['a plain listing is open', { title: T, content: 'Shipped, PayPal FF. Timestamp in comments.' }, 'open'],
    ['removed_by_category moderator', { title: T, content: 'text', removedByCategory: 'moderator' }, 'removed'],
    ['removed_by_category automod_filtered', { title: T, content: 'text', removedByCategory: 'automod_filtered' }, 'removed'],
    ['body [removed]', { title: T, content: '[removed]' }, 'removed'],
    ['body [deleted]', { title: T, content: '[deleted]' }, 'removed'],
    ['author [deleted]', { title: T, content: 'still here', author: '[deleted]' }, 'removed'],
    ['removed beats a SOLD flair', { title: T, flair: 'SOLD', content: '[removed]' }, 'removed'],
    ['title tag [SOLD]', { title: '[SOLD] Trijicon RMR - $400' }, 'sold'],
    ['title tag (Sold) anywhere', { title: '[WTS] Trijicon RMR (Sold)' }, 'sold'],
    ['title starts "SOLD -"', { title: 'SOLD - Trijicon RMR' }, 'sold'],
    ['title tag [CLOSED]', { title: '[WTS][CLOSED] Aimpoint T2' }, 'sold'],
    ['flair SOLD', { title: T, flair: 'SOLD' }, 'sold'],
    ['flair with emoji :sold: Sold', { title: T, flair: ':sold: Sold' }, 'sold'],
    ['flair Closed', { title: T, flair: 'Closed' }, 'sold'],
    ['body line SOLD', { title: T, content: 'SOLD - thanks all\n\nRMR type 2' }, 'sold'],
    ['body "Edit: sold"', { title: T, content: 'RMR type 2\n\nEdit: sold to u/someone' }, 'sold'],
    ['body **CLOSED**', { title: T, content: '**CLOSED**' }, 'sold'],
    ['a sentence closing the thread', { title: T, content: 'Looking for a 1080ti. EDITED: local to 10017. Closing thread, found another solution.' }, 'sold'],
    ['"thread closed" ends a line', { title: T, content: 'RMR type 2\nThread closed, thanks all' }, 'sold'],
    ['a thread mentioned is no mark', { title: T, content: 'see my other thread, closing soon on that one' }, 'open'],
    ['"sold at" a price is not a sale mark', { title: T, content: 'sold at $500 elsewhere, asking $400' }, 'open'],
    ['the word sold mid-sentence is not a mark', { title: T, content: 'I have sold many of these, ask me' }, 'open'],
    ['"Edit: Sold 1 …" sold a count of the items, not the post', { title: T, content: '2 - i5 2500S - $40 Each\nEdit: Sold 1 2500S' }, 'open'],
    ['…"Sold two" likewise', { title: T, content: 'RMR x3 $400 each\nSOLD two of them' }, 'open'],
    ['title tag [PENDING]', { title: '[WTS][PENDING] Trijicon RMR' }, 'pending'],
    ['flair Sale Pending', { title: T, flair: 'Sale Pending' }, 'pending'],
    ['flair PPU', { title: T, flair: 'PPU' }, 'pending'],
    ['title tag (reserved): held for a buyer', { title: '[WTS] Seiko SKX007 on jubilee (Reserved)' }, 'pending'],
    ['title tag [On Hold]', { title: '[WTS] [On Hold] Tudor BB58' }, 'pending'],
    ['flair Reserved', { title: T, flair: 'Reserved' }, 'pending'],
    ['reserved as a word of the title is not a tag', { title: '[WTS] Tudor BB58, reserved for local buyers first' }, 'open'],
    ['body line PENDING', { title: T, content: 'PENDING\n\nRMR' }, 'pending'],
    ['sold beats pending', { title: '[PENDING] RMR', flair: 'SOLD' }, 'sold'],
    // forum classifieds (issue 25 §4): the same states, written the way board sellers write them
    ['forum title "WTS: … - SOLD"', { title: 'WTS: Aimpoint T2 - SOLD' }, 'sold'],
    ['forum title "*SOLD*" at the end', { title: 'WTS Glock mags *SOLD*' }, 'sold'],
    ['forum title "SOLD - WTS: …"', { title: 'SOLD - WTS: Aimpoint T2' }, 'sold'],
    ['forum title "pls remove"', { title: 'WTS: Holosun 507C - SOLD, pls remove' }, 'sold'],
    ['forum title "Please remove"', { title: 'FS: Magpul PRS stock - Please remove' }, 'sold'],
    ['forum title [Closed]', { title: '[Closed] WTS: Larue mount' }, 'sold'],
    ['forum title (SPF): sale pending funds', { title: 'FS: Nightforce NX8 1-8 (SPF)' }, 'pending'],
    ['forum title "- Pending" at the end', { title: 'WTS: Eotech EXPS3-0 - Pending' }, 'pending'],
    ['a forum body still wins over an open title', { title: 'WTS: Aimpoint T2', content: 'SOLD, thanks' }, 'sold'],
    ['"pending" in running text is not a mark', { title: 'WTS: LaRue mount, pending a trade for a T2 too' }, 'open'],
  ]
  for (const [name, input, want] of cases) test(name, () => expect(detectPostState(input)).toBe(want as never))
})

describe('detectPrice', () => {
  const cases: [string, string, string | null, number | null][] = [
    ['the first title price', '[WTS] RMR - $400', '', 400],
    ['no price anywhere', '[WTS] RMR', 'make an offer', null],
    ['a body price without an edit mark is not taken', '[WTS] RMR', 'Asking $300 for both, $20 shipping', null],
    ['a struck-through price and the new one', '[WTS] RMR - $400', '~~$400~~ $350 shipped', 350],
    ['"Price drop:"', '[WTS] RMR - $400', 'Price drop: $375', 375],
    ['the last of several edits wins', '[WTS] RMR - $400', 'Price drop: $375\n\nEdit: now $350', 350],
    ['"reduced to" with thousands', '[WTS] Glock - $1,300', 'reduced to $1,200', 1200],
    ['trailing dollar sign', '[WTS] RMR 400$', '', 400],
  ]
  for (const [name, title, body, want] of cases) test(name, () => expect(detectPrice(title, body)).toBe(want))
})

test('stored states read back; only open (or nothing) alerts', () => {
  expect(asPostState('sold')).toBe('sold')
  expect(asPostState('bogus')).toBe('open')
  expect(asPostState(null)).toBe('open')
  expect([isOpen('open'), isOpen(null), isOpen('pending'), isOpen('sold'), isOpen('removed')]).toEqual([true, true, false, false, false])
})
