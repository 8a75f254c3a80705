// The pure parts of the feeds of matches: XML text escaping, price text, opaque ids, excerpts.
import { describe, expect, test } from 'bun:test'
import { xmlText } from '../../../src/feeds/atom'
import { nameUuid, priceText } from '../../../src/feeds/view'
import { excerptOf } from '../../../src/matches/feed'

describe('xmlText', () => {
  test.each([
    ['plain', 'plain'],
    ['a & b < c > d', 'a &amp; b &lt; c &gt; d'],
    [`"q" 'a'`, '&quot;q&quot; &apos;a&apos;'],
    ['tab\tnl\ncr\r', 'tab\tnl\ncr\r'],
    ['nul\u0000 bell\u0007 esc\u001b del-ok\u007f', 'nul bell esc del-ok\u007f'],
    ['lone \uD800 high, lone \uDC00 low', 'lone  high, lone  low'],
    ['pair 😀 kept', 'pair 😀 kept'],
    ['\uFFFE\uFFFF not characters', ' not characters'],
    [']]> stays text', ']]&gt; stays text'],
  ])('%j → %j', (input, out) => expect(xmlText(input)).toBe(out))
})

describe('priceText', () => {
  test.each([
    [null, null],
    [450, '$450'],
    [1450, '$1,450'],
    [0.3, '$0.30'],
    [19.99, '$19.99'],
    [Number.NaN, null],
  ])('%p → %p', (p, s) => expect(priceText(p)).toBe(s))
})

test('nameUuid is a stable urn:uuid (version 8, RFC 9562 variant) that does not show the name', () => {
  const id = nameUuid('http://localhost:3000 match 42')
  expect(id).toMatch(/^urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
  expect(nameUuid('http://localhost:3000 match 42')).toBe(id)
  expect(nameUuid('http://localhost:3000 match 43')).not.toBe(id)
})

describe('excerptOf', () => {
  test('flattens whitespace', () => expect(excerptOf(' a\n\n b\t c ')).toBe('a b c'))
  test('a short text is whole', () => expect(excerptOf('x'.repeat(600))).toBe('x'.repeat(600)))
  test('a long text is cut at a word with an ellipsis', () => {
    const words = Array.from({ length: 200 }, (_, i) => `word${i}`).join(' ')
    const cut = excerptOf(words, 50)
    expect(cut).toBe('word0 word1 word2 word3 word4 word5 word6 word7…')
  })
})
