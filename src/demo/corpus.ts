// The offline demo's sample forum: hand-written items, phrasings and bodies, combined
// deterministically into a few hundred posts that read like the real forums. All text is
// written for Dibs. No ids or times here — src/demo/source.ts assigns them when it replays.

export type DemoPost = {
  forum: 'accessories' | 'deals'
  title: string
  content: string
  author: string
  flair: string | null
  /** the author's user flair: most accessories sellers show their confirmed trades ("Trades: 12") */
  authorFlair: string | null
  /** deals link to a shop; accessories posts link to themselves (null) */
  linkUrl: string | null
}

type Item = { name: string; price: number; kind: 'optic' | 'light' | 'mag' | 'holster' | 'part' | 'mount' | 'furniture' | 'gear' }

const ITEMS: Item[] = [
  { name: 'Aimpoint T-2 w/ LaRue mount', price: 640, kind: 'optic' },
  { name: 'Aimpoint Micro H-2', price: 560, kind: 'optic' },
  { name: 'Aimpoint PRO', price: 360, kind: 'optic' },
  { name: 'Aimpoint ACRO P-2', price: 520, kind: 'optic' },
  { name: 'Trijicon RMR Type 2 RM06 3.25 MOA', price: 420, kind: 'optic' },
  { name: 'Trijicon SRO 2.5 MOA', price: 430, kind: 'optic' },
  { name: 'Trijicon Credo 1-6x24', price: 780, kind: 'optic' },
  { name: 'Trijicon ACOG TA31 RCO', price: 1150, kind: 'optic' },
  { name: 'Holosun 508T X2 green', price: 330, kind: 'optic' },
  { name: 'Holosun 507C X2', price: 250, kind: 'optic' },
  { name: 'Holosun EPS Carry MRS', price: 280, kind: 'optic' },
  { name: 'Holosun 510C', price: 260, kind: 'optic' },
  { name: 'Eotech EXPS3-2', price: 560, kind: 'optic' },
  { name: 'Eotech G33 magnifier w/ STS mount', price: 480, kind: 'optic' },
  { name: 'Vortex Razor HD Gen III 1-10x24', price: 1550, kind: 'optic' },
  { name: 'Vortex Strike Eagle 1-8x24', price: 330, kind: 'optic' },
  { name: 'Nightforce NX8 1-8x24', price: 1500, kind: 'optic' },
  { name: 'Primary Arms SLx 1-6x24 ACSS Raptor', price: 240, kind: 'optic' },
  { name: 'Leupold DeltaPoint Pro', price: 340, kind: 'optic' },
  { name: 'Steiner MPS', price: 470, kind: 'optic' },
  { name: 'Surefire X300U-A', price: 230, kind: 'light' },
  { name: 'Surefire M600DF Scout', price: 260, kind: 'light' },
  { name: 'Modlite PLHv2 18350', price: 310, kind: 'light' },
  { name: 'Modlite OKW 18650', price: 290, kind: 'light' },
  { name: 'Cloud Defensive REIN 2.0', price: 265, kind: 'light' },
  { name: 'Streamlight TLR-1 HL', price: 120, kind: 'light' },
  { name: 'Streamlight TLR-7A', price: 105, kind: 'light' },
  { name: 'Arisaka 300-CRZ light', price: 140, kind: 'light' },
  { name: 'Magpul PMAG 30 Gen M3 x10', price: 120, kind: 'mag' },
  { name: 'Lancer L5AWM 30rd x5', price: 80, kind: 'mag' },
  { name: 'Glock 19 Gen 5 OEM 15rd mags x4', price: 95, kind: 'mag' },
  { name: 'Glock 17 OEM 17rd mags x5', price: 110, kind: 'mag' },
  { name: 'Sig P365 12rd mags x3', price: 90, kind: 'mag' },
  { name: 'Sig P365XL 15rd mags x3', price: 105, kind: 'mag' },
  { name: 'Staccato P 17rd mags x2', price: 95, kind: 'mag' },
  { name: 'Magpul PMAG 20 7.62 x4', price: 70, kind: 'mag' },
  { name: 'Safariland 6354DO ALS, G17 w/ TLR-1', price: 95, kind: 'holster' },
  { name: 'Tier 1 Concealed Axis Elite, G19 w/ X300', price: 110, kind: 'holster' },
  { name: 'Safariland 7TS ALS, P320 w/ light', price: 80, kind: 'holster' },
  { name: 'Vedder LightTuck, Hellcat Pro', price: 55, kind: 'holster' },
  { name: 'Geissele SSA-E trigger', price: 175, kind: 'part' },
  { name: 'Geissele SD-E trigger', price: 165, kind: 'part' },
  { name: 'Radian Raptor charging handle', price: 65, kind: 'part' },
  { name: 'Radian Talon ambi safety', price: 55, kind: 'part' },
  { name: 'BCM Gunfighter Mod 4 charging handle', price: 45, kind: 'part' },
  { name: 'Daniel Defense RIS III 12.5" rail', price: 260, kind: 'part' },
  { name: 'Aero Precision M4E1 stripped upper', price: 120, kind: 'part' },
  { name: 'Sig P365 X-Macro slide assembly', price: 260, kind: 'part' },
  { name: 'Zev Glock 19 slide, RMR cut', price: 310, kind: 'part' },
  { name: 'Unity FAST Omni mount', price: 150, kind: 'mount' },
  { name: 'Scalarworks LEAP/01 Micro mount', price: 135, kind: 'mount' },
  { name: 'Geissele Super Precision 30mm mount', price: 300, kind: 'mount' },
  { name: 'Reptilia DOT mount, T-2 footprint', price: 110, kind: 'mount' },
  { name: 'Magpul CTR stock, FDE', price: 45, kind: 'furniture' },
  { name: 'B5 Systems Bravo stock', price: 50, kind: 'furniture' },
  { name: 'Magpul MOE-K2 grip', price: 18, kind: 'furniture' },
  { name: 'BCM vertical grip Mod 3', price: 22, kind: 'furniture' },
  { name: 'Ferro Concepts Slickster plate carrier, ranger green', price: 185, kind: 'gear' },
  { name: 'Blue Force Gear Vickers sling', price: 40, kind: 'gear' },
  { name: 'Haley Strategic D3CRM chest rig', price: 150, kind: 'gear' },
  { name: 'Peltor Sport Tactical 500 ear pro', price: 110, kind: 'gear' },
]

const CONDITION: Record<Item['kind'], string[]> = {
  optic: [
    'Glass is perfect, light scuffs on the housing from holster wear. Holds zero.',
    'Bought new last year, maybe 400 rounds behind it. Battery compartment is clean.',
    'Mint in box, mounted once to zero and never used after that.',
  ],
  light: [
    'Output tested on fresh batteries, switch works every time. Minor finish wear on the bezel.',
    'Ran it on a home defence carbine, no drops, no cracks in the lens.',
  ],
  mag: ['All lock back on an empty mag, feed fine. Loaded a few times each.', 'New, never loaded, still in the wrappers.'],
  holster: ['All retention devices work. Normal scuffs from use.', 'Worn maybe a dozen times, fits perfectly, no cracks.'],
  part: ['Pulled from a build with under 200 rounds. Comes with all the small parts.', 'New in package, bought two by mistake.'],
  mount: ['Screws and torque spec card included. Tiny ring marks, otherwise clean.', 'Used on one optic, no marks on the clamp.'],
  furniture: ['Light wear, no cracks.', 'Take-off from a new rifle, never fired with it.'],
  gear: ['Used for a couple of classes, clean, no stains.', 'Lightly used, everything works as it should.'],
}

const WTS_TITLES = [
  (i: string, p: number) => `[WTS] ${i} - $${p}`,
  (i: string, p: number) => `[WTS] ${i} - $${p} shipped`,
  (i: string, p: number) => `[WTS/WTT] ${i} - $${p} or trade`,
  (i: string, p: number) => `(WTS) ${i} $${p}`,
  (i: string, p: number) => `WTS: ${i} - $${p} OBO`,
  (i: string, p: number) => `[WTS][TX] ${i} - $${p}`,
  (i: string, p: number) => `[WTS] ${i}, lightly used - $${p} shipped`,
  (i: string, p: number) => `[WTS] Price drop: ${i} now $${p}`,
]

const WTS_BODIES = [
  (i: Item, cond: string, p: number) =>
    `Timestamp: imgur.com/a/demo${slug(i.name).replace(/-/g, '').slice(0, 8)}\n\n${cond}\n\n$${p} shipped via USPS Priority. PayPal F&F or Zelle, no notes please.`,
  (i: Item, cond: string, p: number) =>
    `${i.name}. ${cond}\n\nAsking $${p} shipped to the lower 48. PayPal G&S add 3%. Happy to send more pictures.\n\nTimestamps in the comments.`,
  (i: Item, cond: string, p: number) =>
    `Selling my ${i.name}.\n\n${cond}\n\n$${p}, price includes shipping. First "I'll take it" in the comments then PM gets it.`,
]

const WTB_TITLES = [
  (i: string) => `[WTB] ${i}`,
  (i: string, p: number) => `[WTB] ${i} - budget $${p}`,
  (i: string) => `WTB: ${i}, used is fine`,
  (i: string) => `[ISO] ${i}`,
  (i: string, p: number) => `[WTB] ${i} up to $${p} shipped`,
]

const WTB_BODIES = [
  (i: Item, p: number) => `Looking for a ${i.name}. Cosmetic wear is fine as long as it works. Paying around $${p} shipped, Zelle or PayPal.`,
  (i: Item, p: number) => `Want a ${i.name} for an upcoming build. Can pay first to anyone with confirmed trades. Budget is $${p}.`,
  (i: Item, p: number) => `Hit me up if you have a ${i.name} sitting in a drawer. $${p} is my number, a bit more for one with the box.`,
]

const STATES = ['TX', 'FL', 'AZ', 'OH', 'PA', 'WA', 'GA', 'NC', 'VA', 'CO', 'MI', 'TN']

type Deal = { cat: string; name: string; price: number; shop: string; extra?: string }

const DEALS: Deal[] = [
  { cat: 'Optic', name: 'Holosun 507C X2', price: 279.99, shop: 'ridgelineoutfitters' },
  { cat: 'Optic', name: 'Holosun 508T X2', price: 359.99, shop: 'ridgelineoutfitters' },
  { cat: 'Optic', name: 'Holosun 510C', price: 269.99, shop: 'mesatactical' },
  { cat: 'Optic', name: 'Vortex Strike Eagle 1-8x24', price: 349, shop: 'glasshouseoptics' },
  { cat: 'Optic', name: 'Primary Arms SLx 1-6x24 ACSS', price: 219.99, shop: 'glasshouseoptics' },
  { cat: 'Optic', name: 'Sig Sauer Romeo5 X', price: 149.99, shop: 'mesatactical' },
  { cat: 'Optic', name: 'Aimpoint PRO', price: 399, shop: 'northforkarms' },
  { cat: 'Optic', name: 'Trijicon RMR Type 2 RM06', price: 449.99, shop: 'northforkarms' },
  { cat: 'Optic', name: 'Leupold DeltaPoint Pro 2.5 MOA', price: 379.99, shop: 'glasshouseoptics' },
  { cat: 'Light', name: 'Streamlight TLR-1 HL', price: 119.99, shop: 'brightlinesupply' },
  { cat: 'Light', name: 'Streamlight TLR-7 Sub', price: 129.99, shop: 'brightlinesupply' },
  { cat: 'Light', name: 'Surefire X300U-B', price: 259, shop: 'mesatactical' },
  { cat: 'Light', name: 'Cloud Defensive REIN 2.0', price: 279, shop: 'brightlinesupply' },
  { cat: 'Magazine', name: 'Magpul PMAG 30 Gen M3 5.56', price: 11.99, shop: 'magdepot', extra: 'each (10+)' },
  { cat: 'Magazine', name: 'Glock 17 OEM 17rd', price: 24.99, shop: 'magdepot' },
  { cat: 'Magazine', name: 'Sig P365 12rd', price: 32.99, shop: 'magdepot' },
  { cat: 'Magazine', name: 'Lancer L5AWM 30rd 3-pack', price: 44.99, shop: 'northforkarms' },
  { cat: 'Ammo', name: 'Federal American Eagle 9mm 115gr FMJ 1000rd', price: 259.99, shop: 'bulkroundsupply', extra: '($0.26/rd)' },
  { cat: 'Ammo', name: 'Winchester White Box 5.56 55gr 1000rd', price: 399.99, shop: 'bulkroundsupply', extra: '($0.40/rd)' },
  { cat: 'Ammo', name: 'Hornady Critical Defense 9mm 115gr 25rd', price: 18.99, shop: 'bulkroundsupply' },
  { cat: 'Ammo', name: 'PMC Bronze .223 55gr 1000rd', price: 369.99, shop: 'plainsammo', extra: '($0.37/rd)' },
  { cat: 'Ammo', name: 'CCI Blazer Brass .45 ACP 230gr 500rd', price: 189.99, shop: 'plainsammo', extra: '($0.38/rd)' },
  { cat: 'Ammo', name: 'Speer Gold Dot 124gr +P 50rd', price: 34.99, shop: 'plainsammo' },
  { cat: 'Holster', name: 'Tier 1 Concealed Axis Elite', price: 104, shop: 'carrycraft' },
  { cat: 'Holster', name: 'Safariland 6354DO ALS', price: 129.99, shop: 'carrycraft' },
  { cat: 'Trigger', name: 'Geissele SSA-E X', price: 189, shop: 'riflepartsco' },
  { cat: 'Trigger', name: 'Larue MBT-2S', price: 99, shop: 'riflepartsco' },
  { cat: 'Upper', name: 'Aero Precision M4E1 complete 16" upper', price: 389.99, shop: 'riflepartsco' },
  { cat: 'Upper', name: 'BCM 14.5" Mk2 standard upper', price: 749, shop: 'northforkarms' },
  { cat: 'Mount', name: 'Unity FAST Omni riser', price: 129, shop: 'mesatactical' },
  { cat: 'Mount', name: 'Scalarworks LEAP/01 Micro', price: 139, shop: 'mesatactical' },
  { cat: 'Barrel', name: 'Ballistic Advantage 16" Modern Series 5.56', price: 179.99, shop: 'riflepartsco' },
  { cat: 'Gear', name: 'Peltor Sport Tactical 500', price: 149.99, shop: 'rangebagco' },
  { cat: 'Gear', name: 'Blue Force Gear Vickers sling', price: 39.95, shop: 'rangebagco' },
  { cat: 'Pistol', name: 'Glock 19 Gen 5 MOS', price: 549, shop: 'northforkarms' },
  { cat: 'Pistol', name: 'Sig P365XL Spectre Comp', price: 749, shop: 'northforkarms' },
  { cat: 'Rifle', name: 'Ruger American Gen II .308', price: 549.99, shop: 'plainsarmory' },
]

const DEAL_SUFFIX = [
  (d: Deal) => (d.extra ? ` ${d.extra}` : '') + ' + free shipping',
  (d: Deal) => (d.extra ? ` ${d.extra}` : '') + ' + $9.99 shipping',
  () => ' w/ code SAVE10',
  (d: Deal) => ` after $${d.price > 300 ? 50 : 15} MIR`,
  () => ' (lowest price I have seen)',
]

const FIRST = [
  'range',
  'tx',
  'pnw',
  'optic',
  'mag',
  'carbine',
  'lowpower',
  'holo',
  'fde',
  'duty',
  'mesa',
  'gulf',
  'plains',
  'ozark',
  'cascade',
  'rust',
  'brass',
  'coyote',
]
const SECOND = ['rick', 'guy', 'larry', 'ollie', 'hank', 'dan', 'steve', 'builder', 'hunter', 'collector', 'shooter', 'nerd', 'dad', 'rat', 'buyer', 'seller']

function slug(s: string): string {
  return s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
}

/** Small deterministic PRNG (mulberry32): the corpus is the same on every run. */
export function prng(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

function buildCorpus(): Omit<DemoPost, 'authorFlair'>[] {
  const rnd = prng(20251120)
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!
  const author = () => `${pick(FIRST)}_${pick(SECOND)}${rnd() < 0.5 ? Math.floor(rnd() * 90 + 10) : ''}`
  const price = (p: number) => Math.max(5, Math.round((p * (0.88 + rnd() * 0.2)) / 5) * 5)
  const out: Omit<DemoPost, 'authorFlair'>[] = []

  for (const item of ITEMS) {
    // every item is sold twice in different words and wanted once; some are traded
    for (let n = 0; n < 2; n++) {
      const p = price(item.price)
      let title = pick(WTS_TITLES)(item.name, p)
      if (title.includes('[TX]')) title = title.replace('[TX]', `[${pick(STATES)}]`)
      const flagged = rnd()
      out.push({
        forum: 'accessories',
        title,
        content: pick(WTS_BODIES)(item, pick(CONDITION[item.kind]), p),
        author: author(),
        flair: flagged < 0.6 ? 'WTS' : flagged < 0.7 ? 'Selling' : null,
        linkUrl: null,
      })
    }
    const budget = price(item.price * 0.9)
    out.push({
      forum: 'accessories',
      title: pick(WTB_TITLES)(item.name, budget),
      content: pick(WTB_BODIES)(item, budget),
      author: author(),
      flair: rnd() < 0.6 ? 'WTB' : rnd() < 0.5 ? 'Buying' : null,
      linkUrl: null,
    })
    if (rnd() < 0.3) {
      const other = pick(ITEMS.filter((x) => x.kind === item.kind && x !== item))
      out.push({
        forum: 'accessories',
        title: `[WTT] ${item.name} for ${other.name}`,
        content: `Want to trade my ${item.name} for a ${other.name}. ${pick(CONDITION[item.kind])} Can add or take cash to even it out.`,
        author: author(),
        flair: null,
        linkUrl: null,
      })
    }
  }

  for (const deal of DEALS) {
    for (let n = 0; n < 3; n++) {
      const p = n === 0 ? deal.price : Math.round(deal.price * (0.9 + rnd() * 0.15) * 100) / 100
      const shown = Number.isInteger(p) ? String(p) : p.toFixed(2)
      out.push({
        forum: 'deals',
        title: `[${deal.cat}] ${deal.name} - $${shown}${pick(DEAL_SUFFIX)(deal)}`,
        content: '',
        author: author(),
        flair: null,
        linkUrl: `https://www.${deal.shop}.example/products/${slug(deal.name)}`,
      })
    }
  }
  return out
}

/**
 * A demo author's trade count, the same for every post of that author (a hash of the name, so the
 * corpus's random sequence is untouched): about two in three accessories authors show "Trades: N".
 */
export function demoAuthorFlair(author: string): string | null {
  let h = 0
  for (let i = 0; i < author.length; i++) h = (Math.imul(h, 31) + author.charCodeAt(i)) >>> 0
  if (h % 3 === 0) return null
  return `Trades: ${(h >>> 2) % 120}`
}

export const DEMO_CORPUS: readonly DemoPost[] = Object.freeze(
  buildCorpus().map((p) => ({ ...p, authorFlair: p.forum === 'accessories' ? demoAuthorFlair(p.author) : null })),
)
