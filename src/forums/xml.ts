// A small element tree from feed XML, read with saxes (a maintained, strict, non-validating parser).
// Safe by construction: a document with a DOCTYPE is refused before parsing (no DTD, so no entity
// declarations, no entity expansion and no external entities); only XML's five named entities and
// character references are decoded, once. Work is bounded: the caller caps the bytes
// (readCapped in feed-http.ts), and here depth and element count are capped too. Pure; no I/O.
import { SaxesParser } from 'saxes'

export type XmlElement = { name: string; attrs: Map<string, string>; children: XmlElement[]; text: string }

export class FeedFormatError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'FeedFormatError'
  }
}

const MAX_DEPTH = 64
const MAX_ELEMENTS = 50_000

/** The local name of a qualified name: "media:thumbnail" → "thumbnail". */
export const localName = (name: string) => name.slice(name.indexOf(':') + 1)

/** Parses a whole document into its root element. Throws FeedFormatError with a reason in words. */
export function parseXml(text: string): XmlElement {
  if (/<!DOCTYPE/i.test(text.slice(0, 4096)) || /<!ENTITY/i.test(text))
    throw new FeedFormatError('the feed declares a DTD or entities, which Dibs refuses to read')
  const parser = new SaxesParser({ position: false })
  const stack: XmlElement[] = []
  let root: XmlElement | null = null
  let count = 0
  let failure: string | null = null
  parser.on('error', (e) => {
    failure ??= e.message
  })
  parser.on('doctype', () => {
    failure ??= 'the feed declares a DTD'
  })
  parser.on('opentag', (tag) => {
    if (++count > MAX_ELEMENTS) throw new FeedFormatError(`the feed has more than ${MAX_ELEMENTS} elements`)
    if (stack.length >= MAX_DEPTH) throw new FeedFormatError(`the feed nests deeper than ${MAX_DEPTH} elements`)
    const attrs = new Map<string, string>()
    for (const [k, v] of Object.entries(tag.attributes)) attrs.set(k, typeof v === 'string' ? v : v.value)
    const el: XmlElement = { name: tag.name, attrs, children: [], text: '' }
    stack.at(-1)?.children.push(el)
    stack.push(el)
  })
  parser.on('closetag', () => {
    const el = stack.pop()
    if (stack.length === 0 && el) root = el
  })
  const addText = (t: string) => {
    const top = stack.at(-1)
    if (top) top.text += t
  }
  parser.on('text', addText)
  parser.on('cdata', addText)
  try {
    parser.write(text).close()
  } catch (e) {
    if (e instanceof FeedFormatError) throw e
    failure ??= e instanceof Error ? e.message : String(e)
  }
  if (failure) throw new FeedFormatError(`the feed is not well-formed XML (${failure.split('\n')[0]!.slice(0, 200)})`)
  if (!root) throw new FeedFormatError('the feed is empty')
  return root
}

/** Child elements by local name. */
export function children(el: XmlElement, name: string): XmlElement[] {
  return el.children.filter((c) => localName(c.name) === name)
}

export function child(el: XmlElement, name: string): XmlElement | undefined {
  return el.children.find((c) => localName(c.name) === name)
}

export function childText(el: XmlElement, name: string): string | null {
  const c = child(el, name)
  return c ? c.text.trim() : null
}
