// The text of a post body that a feed carries as HTML: block ends become line breaks, tags go, scripts
// and styles go with their content, and HTML entities are decoded once (a literal "&amp;lt;" in the
// post stays "&lt;"). Links keep only their text. Pure.

const NAMED = new Map([
  ['amp', '&'],
  ['lt', '<'],
  ['gt', '>'],
  ['quot', '"'],
  ['apos', "'"],
  ['nbsp', ' '],
  ['ndash', '–'],
  ['mdash', '—'],
  ['hellip', '…'],
  ['lsquo', '‘'],
  ['rsquo', '’'],
  ['ldquo', '“'],
  ['rdquo', '”'],
  ['times', '×'],
  ['deg', '°'],
  ['frac12', '½'],
  ['trade', '™'],
  ['reg', '®'],
  ['copy', '©'],
  ['euro', '€'],
  ['pound', '£'],
])

/** Decodes HTML character references once. Unknown names stay as written. */
export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]{1,6}|#[0-9]{1,7}|[a-z][a-z0-9]{1,31});/gi, (whole, ref: string) => {
    if (ref[0] === '#') {
      const code = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10)
      return code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff) ? String.fromCodePoint(code) : '\uFFFD'
    }
    return NAMED.get(ref.toLowerCase()) ?? whole
  })
}

const BLOCK_END = /<\/(p|div|li|h[1-6]|tr|blockquote|pre|table|ul|ol)\s*>/gi
const LINE = /<(br|hr)\s*\/?>|<(li|tr)(\s[^>]*)?>/gi

/** Plain text of an HTML fragment, line breaks kept (at most one blank line in a row). */
export function htmlToText(html: string): string {
  const text = html
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/<(script|style|template)\b[\s\S]*?<\/\1\s*>/gi, '')
    .replace(/<(script|style|template)\b[\s\S]*$/gi, '')
    .replace(BLOCK_END, '\n\n')
    .replace(LINE, '\n')
    .replace(/<\/?[a-z][^>]*>/gi, '')
  return decodeEntities(text)
    .replace(/[ \t\f\v\u00a0]+\n/g, '\n')
    .replace(/\n[ \t\f\v\u00a0]+/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim()
}
