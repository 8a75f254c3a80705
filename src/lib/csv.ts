// CSV as RFC 4180 has it: records end in CRLF, a field is quoted when it holds a comma, a quote, CR or
// LF (a quote inside doubles), and the first record is the header. Reading is lenient where the RFC
// allows (LF alone ends a record too, a final line break is optional, a UTF-8 BOM is skipped) and strict
// where a wrong guess would change data: a quote inside an unquoted field, text after a closing quote,
// or a quote never closed is an error naming the line. Pure.

export class CsvError extends Error {
  constructor(
    message: string,
    readonly line: number,
  ) {
    super(`line ${line}: ${message}`)
    this.name = 'CsvError'
  }
}

function field(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value
}

/** The header and the rows as CSV text, each record ending in CRLF. */
export function formatCsv(header: readonly string[], rows: readonly (readonly string[])[]): string {
  return [header, ...rows].map((r) => r.map(field).join(',') + '\r\n').join('')
}

/** A record and the line of the text it starts on (1-based; a quoted field may span lines). */
export type CsvRecord = { line: number; fields: string[] }

/** Every record of the text; blank lines are skipped. Throws CsvError on malformed quoting. */
export function parseCsv(text: string): CsvRecord[] {
  const src = text.startsWith('\uFEFF') ? text.slice(1) : text
  const records: CsvRecord[] = []
  let fields: string[] = []
  let cur = ''
  let quoted = false // the current field was quoted (an empty quoted field is still a field)
  let line = 1
  let start = 1
  let i = 0
  const endField = () => {
    fields.push(cur)
    cur = ''
    quoted = false
  }
  const endRecord = () => {
    const blank = fields.length === 0 && cur === '' && !quoted
    endField()
    if (!blank) records.push({ line: start, fields })
    fields = []
  }
  while (i < src.length) {
    const c = src[i]!
    if (c === '"') {
      if (cur !== '' || quoted) throw new CsvError('a quote inside an unquoted field (quote the whole field and double the quote)', line)
      const opened = line
      quoted = true
      i++
      for (;;) {
        if (i >= src.length) throw new CsvError('a quoted field is never closed', opened)
        const q = src[i]!
        i++
        if (q === '"') {
          if (src[i] !== '"') break
          i++
        } else if (q === '\n') line++
        cur += q
      }
      const next = src[i]
      if (next !== undefined && next !== ',' && next !== '\r' && next !== '\n') throw new CsvError('text after a closing quote', line)
    } else if (c === ',') {
      endField()
      i++
    } else if (c === '\r' || c === '\n') {
      endRecord()
      i += c === '\r' && src[i + 1] === '\n' ? 2 : 1
      line++
      start = line
    } else {
      cur += c
      i++
    }
  }
  if (cur !== '' || quoted || fields.length > 0) endRecord()
  return records
}
