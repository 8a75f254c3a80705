// The dates feeds carry, read strictly (Date.parse guesses, and guesses differently per engine):
// RFC 822/1123 as RSS uses it ("Fri, 16 Mar 2018 22:57:07 +0000", the weekday optional, seconds
// optional, two-digit years, named zones GMT/UT/Z/EST…PDT and a few European/Australian ones),
// RFC 3339 / ISO 8601 as Atom, dc:date and JSON Feed use it ("2018-06-05T04:26:05-07:00", fractions,
// "Z", a space for the T, a date alone), and ISO without a zone, read as UTC (what feeds without a
// zone mean far more often than the server's local time). Anything else, or a field out of range
// ("Sun, 99 Jun 2009", "1:2:3:4"), is null: the caller says so in the item. Pure.

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec']

/** Named zones → minutes east of UTC. Military letters other than Z mean "unknown" (RFC 1123 §5.2.14): read as UTC. */
const ZONES: Record<string, number> = {
  ut: 0,
  utc: 0,
  gmt: 0,
  z: 0,
  est: -300,
  edt: -240,
  cst: -360,
  cdt: -300,
  mst: -420,
  mdt: -360,
  pst: -480,
  pdt: -420,
  akst: -540,
  akdt: -480,
  hst: -600,
  wet: 0,
  west: 60,
  bst: 60,
  cet: 60,
  cest: 120,
  met: 60,
  mest: 120,
  eet: 120,
  eest: 180,
  msk: 180,
  aest: 600,
  aedt: 660,
  acst: 570,
  awst: 480,
  nzst: 720,
  nzdt: 780,
}

const RFC822 =
  /^(?:[a-z]{3,9},?\s+)?(\d{1,2})[\s-]+([a-z]{3,9})\.?[\s-]+(\d{2}|\d{4})\s+(\d{1,2}):(\d{2})(?::(\d{2}))?(?:\.\d+)?\s*(?:([+-])(\d{2}):?(\d{2})|\(?([a-z]{1,5})\)?)?$/i
const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[t\s](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?\s*(?:(z)|([+-])(\d{2})(?::?(\d{2}))?)?)?$/i

/** Milliseconds since the epoch, or null when the text is not a date this reader knows. */
export function parseFeedDate(text: string | null | undefined): number | null {
  const s = (text ?? '').trim()
  if (!s) return null
  return iso(s) ?? rfc822(s)
}

function iso(s: string): number | null {
  const m = ISO.exec(s)
  if (!m) return null
  const [, y, mo, d, h = '0', mi = '0', sec = '0', frac = '', , sign, oh = '0', om = '0'] = m
  const offset = sign ? (sign === '-' ? -1 : 1) * (Number(oh) * 60 + Number(om)) : 0
  const ms = Number(frac.padEnd(3, '0').slice(0, 3))
  return build(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(sec), ms, offset)
}

function rfc822(s: string): number | null {
  const m = RFC822.exec(s)
  if (!m) return null
  const [, d, monthName, y, h, mi, sec = '0', sign, oh, om, zone] = m
  const month = MONTHS.indexOf(monthName!.slice(0, 3).toLowerCase())
  if (month < 0) return null
  let year = Number(y)
  if (y!.length === 2) year += year < 70 ? 2000 : 1900
  let offset = 0
  if (sign) offset = (sign === '-' ? -1 : 1) * (Number(oh) * 60 + Number(om))
  else if (zone) {
    const named = ZONES[zone.toLowerCase()]
    if (named !== undefined) offset = named
    else if (zone.length !== 1) return null // an unknown named zone: better no date than a wrong one
  }
  return build(year, month, Number(d), Number(h), Number(mi), Number(sec), 0, offset)
}

/** The instant of a wall-clock time at an offset, or null when a field is out of range. */
function build(y: number, mo: number, d: number, h: number, mi: number, s: number, ms: number, offsetMin: number): number | null {
  if (mo < 0 || mo > 11 || d < 1 || h > 23 || mi > 59 || s > 60 || Math.abs(offsetMin) > 18 * 60) return null
  const wall = Date.UTC(y, mo, d, h, mi, Math.min(s, 59), ms)
  const check = new Date(wall)
  if (check.getUTCDate() !== d || check.getUTCMonth() !== mo) return null // 31 Feb, 99 Jun
  return wall - offsetMin * 60_000
}
