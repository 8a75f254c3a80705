// What every email must be to read well in real mail clients (issue 12 item 20), checked on the
// raw message a real SMTP server received: Gmail, Outlook.com and Yahoo drop <body>'s attributes
// and <head> styles, so the look has to sit on tables with inline styles; dark clients need an
// explicit background; the text part carries what the HTML carries.
import { expect } from 'bun:test'
import type { ReceivedMail } from '../fakes/smtp'

const ENTITIES: Record<string, string> = { '&amp;': '&', '&quot;': '"', '&#39;': "'", '&lt;': '<', '&gt;': '>' }
const unescape = (s: string) => s.replace(/&(amp|quot|#39|lt|gt);/g, (e) => ENTITIES[e]!)

function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4
  })
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!
}
function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x)
  return (hi! + 0.05) / (lo! + 0.05)
}
const styleOf = (tag: string) => /style="([^"]*)"/.exec(tag)?.[1] ?? ''

/** Table wrapper with inline styles and a background, color-scheme/lang/viewport, a table-cell button, a wrapping fallback link. */
export function expectMailClientLayout(mail: ReceivedMail, opts: { button: boolean }) {
  const { html } = mail
  expect(html).toMatch(/^<!doctype html>/i)
  expect(html).toMatch(/<html[^>]*\slang="en"/)
  expect(html).toContain('<meta name="color-scheme" content="light">')
  expect(html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">')
  // Webmail drops <body>: the first thing in it is the full-width wrapper table with its own background.
  const wrapper = /<body[^>]*>\s*<table\b[^>]*>/.exec(html)?.[0].replace(/^<body[^>]*>\s*/, '')
  expect(wrapper).toBeDefined()
  expect(wrapper).toContain('role="presentation"')
  expect(wrapper).toContain('width="100%"')
  expect(wrapper).toMatch(/bgcolor="#[0-9a-f]{6}"/)
  expect(wrapper).toMatch(/lang="en"/)
  expect(styleOf(wrapper!)).toMatch(/background-color:#[0-9a-f]{6}/)
  // The card: a cell with its own background, text colour and font, all inline; readable (≥ 4.5:1).
  const card = [...html.matchAll(/<td\b[^>]*>/g)].map((m) => m[0]).find((td) => /background-color:/.test(styleOf(td)) && /font-family:/.test(styleOf(td)))
  expect(card).toBeDefined()
  const bg = /background-color:(#[0-9a-f]{6})/.exec(styleOf(card!))![1]!
  const fg = /(?:^|;)color:(#[0-9a-f]{6})/.exec(styleOf(card!))![1]!
  expect(contrast(bg, fg)).toBeGreaterThanOrEqual(4.5)
  for (const p of html.match(/<(p|h1|h2)\b[^>]*>/g) ?? []) expect(styleOf(p)).toMatch(/(^|;)color:#[0-9a-f]{6}/)
  if (!opts.button) return
  // A button is a link inside a coloured table cell (Outlook.com ignores padding on a bare <a>).
  const button = /<td\b([^>]*)>\s*<a\b[^>]*href="([^"]+)"[^>]*style="([^"]*)"/.exec(html)
  expect(button).not.toBeNull()
  expect(button![1]).toMatch(/bgcolor="#[0-9a-f]{6}"/)
  expect(button![3]).toContain('display:inline-block')
  // Its fallback link shows the whole URL and wraps on a 375 px screen.
  const href = button![2]!
  const fallback = new RegExp(`<a\\b[^>]*href="${href.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}"[^>]*style="([^"]*)"[^>]*>([^<]*)</a>`, 'g')
  const shown = [...html.matchAll(fallback)].find((m) => m[2] === href)
  expect(shown).toBeDefined()
  expect(shown![1]).toContain('word-break:break-all')
  expect(shown![1]).toContain('overflow-wrap:anywhere')
}

/** The text part carries the same links as the HTML, none glued to punctuation, and the given words. */
export function expectTextLikeHtml(mail: ReceivedMail, words: string[] = []) {
  const hrefs = new Set([...mail.html.matchAll(/href="([^"]+)"/g)].map((m) => unescape(m[1]!)))
  const urls = [...mail.text.matchAll(/https?:\/\/[^\s<>]+/g)].map((m) => m[0])
  for (const url of urls) expect(url).not.toMatch(/[.,;:!?)\]'"]$/)
  expect(new Set(urls)).toEqual(hrefs)
  const visible = unescape(mail.html.replace(/<[^>]+>/g, ' '))
  for (const word of words) {
    expect(mail.text).toContain(word)
    expect(visible).toContain(word)
  }
}

/** Every email says it was sent by a program (RFC 3834): no out-of-office replies to it. */
export function expectAutoSubmitted(mail: ReceivedMail) {
  expect(mail.headers['auto-submitted']).toBe('auto-generated')
}
