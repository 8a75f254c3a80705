// RFC 4180 CSV: what formatCsv writes, parseCsv reads back; malformed quoting names its line.
import { describe, expect, test } from 'bun:test'
import { CsvError, formatCsv, parseCsv } from '../../../src/lib/csv'

const fields = (text: string) => parseCsv(text).map((r) => r.fields)

describe('formatCsv', () => {
  test('quotes only fields with a comma, quote, CR or LF, doubles quotes, ends records in CRLF', () => {
    expect(
      formatCsv(
        ['a', 'b'],
        [
          ['plain', 'x,y'],
          ['say "hi"', 'two\nlines'],
          ['', ' spaced '],
        ],
      ),
    ).toBe('a,b\r\nplain,"x,y"\r\n"say ""hi""","two\nlines"\r\n, spaced \r\n')
  })
})

describe('parseCsv', () => {
  test.each([
    [
      'LF endings and no final break',
      'a,b\nc,d',
      [
        ['a', 'b'],
        ['c', 'd'],
      ],
    ],
    [
      'CRLF endings',
      'a,b\r\nc,d\r\n',
      [
        ['a', 'b'],
        ['c', 'd'],
      ],
    ],
    ['blank lines skipped', 'a\r\n\r\nb\r\n\r\n', [['a'], ['b']]],
    [
      'empty fields kept',
      'a,,c\r\n,,\r\n',
      [
        ['a', '', 'c'],
        ['', '', ''],
      ],
    ],
    ['an empty quoted field is a record', '""\r\n', [['']]],
    ['quoted comma, quote and line break', '"x,y","say ""hi""","two\r\nlines"\r\n', [['x,y', 'say "hi"', 'two\r\nlines']]],
    ['a byte order mark is skipped', '\uFEFFcategory,term\r\n', [['category', 'term']]],
    ['spaces are data', ' a , b ', [[' a ', ' b ']]],
  ])('%s', (_name, text, out) => expect(fields(text)).toEqual(out))

  test('each record knows the line it starts on, quoted line breaks counted', () => {
    expect(parseCsv('h\r\n"a\nb"\r\nc\r\n').map((r) => r.line)).toEqual([1, 2, 4])
  })

  test('round trip: whatever formatCsv writes reads back the same', () => {
    const rows = [
      ['wts', '"red dot" -airsoft'],
      ['gd', 'a,b'],
      ['wtb', 'line\nbreak'],
      ['wts', ''],
    ]
    expect(fields(formatCsv(['category', 'term'], rows))).toEqual([['category', 'term'], ...rows])
  })

  test.each([
    ['a quote inside an unquoted field', 'a,b"c\r\n', 'line 1: a quote inside an unquoted field (quote the whole field and double the quote)'],
    ['text after a closing quote', 'h\r\n"a"b,c\r\n', 'line 2: text after a closing quote'],
    ['a quote never closed', 'h\r\nx\r\n"open\r\nmore', 'line 3: a quoted field is never closed'],
  ])('%s is an error naming the line', (_name, text, message) => {
    expect(() => parseCsv(text)).toThrow(CsvError)
    expect(() => parseCsv(text)).toThrow(message)
  })
})
