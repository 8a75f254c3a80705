import { describe, expect, test } from 'bun:test'
import { readBody, readTitle } from '../../../src/matching/listing-structure'
import { preparePost } from '../../../src/matching/prepare'

// Renders a prepared post as text: each token with /segment, H or W for its side, ! when it is an
// accessory-for mention (% replica item, × item marked sold, + an extra sold with the item, ^ a gun maker's name on
// its own part); then each
// item segment with its prices.
const marks = (f: number) => (f & 1 ? '!' : '') + (f & 2 ? '%' : '') + (f & 4 ? '×' : '') + (f & 8 ? '+' : '') + (f & 16 ? '^' : '')

function render(title: string, content?: string) {
  const p = preparePost({ title, content })
  const words = p.tokens
    .map((t, i) => (t === '' ? '‖' : `${t}${p.seg[i] ? '/' + p.seg[i] : ''}${p.side[i] === 1 ? 'H' : p.side[i] === 2 ? 'W' : ''}${marks(p.fits[i]!)}`))
    .join(' ')
  const segs = p.segments
    .slice(1)
    .map(
      (s) =>
        `${s.id}${s.side ? s.side[0] : ''}[${s.prices.map((x) => x.amount + (x.role === 'item' ? '' : ':' + x.role) + (x.unit === 'total' ? '' : '/' + x.unit)).join(',')}]`,
    )
    .join(' ')
  return { words, segs, sided: p.sided }
}

describe('item segments and their prices (titles)', () => {
  const cases: [string, string, string][] = [
    [
      '[WTS] Aimpoint T2 $600, Trijicon mount $60, Holosun 507C $250',
      'wts aimpoint/1 t/1 2/1 600/1 trijicon/2 mount/2 60/2 holosun/3 507/3 c/3 250/3',
      '1[600] 2[60] 3[250]',
    ],
    ['[WTS] Aimpoint T2, Trijicon mount, Holosun 507C', 'wts aimpoint/1 t/1 2/1 trijicon/2 mount/2 holosun/3 507/3 c/3', '1[] 2[] 3[]'],
    // spec pieces ("Type 2", "3.25 MOA", "RM06") and a price-only piece join the item
    ['[WTS] Trijicon RMR Type 2, 3.25 MOA, RM06 - $450 shipped', 'wts trijicon/1 rmr/1 type/1 2/1 3/1 25/1 moa/1 rm/1 06/1 450/1 shipped/1', '1[450]'],
    // " - " splits only where both sides carry a price
    ['[WTS] Aimpoint T2 - $700 - Trijicon mount - $60', 'wts aimpoint/1 t/1 2/1 700/1 trijicon/2 mount/2 60/2', '1[700] 2[60]'],
    ['Glock 19 - Gen 5 - $450', 'glock/1 19/1 gen/1 5/1 450/1', '1[450]'],
    // " + " / " & " / " / " / ";" / "|" split; glued "/" and "&" do not
    ['RMR $400 + SRO $500', 'rmr/1 400/1 sro/2 500/2', '1[400] 2[500]'],
    ['T2/H2 mount $50', 't/1! 2/1! h/1! 2/1! mount/1 50/1', '1[50]'],
    ['S&B PMII $2k; NF ATACR $2.2k', 'schmidt/1 bender/1 pmii/1 2/1 k/1 nightforce/2 atacr/2 2/2 2/2 k/2', '1[2000] 2[2200]'],
    ['Holosun 507C | Trijicon RMR', 'holosun/1 507/1 c/1 trijicon/2 rmr/2', '1[] 2[]'],
    ['Mount / Riser / Rings', 'mount/1 riser/2 ring/3', '1[] 2[] 3[]'],
    // roles stay with the item they follow
    ['RMR $450 + $20 shipping', 'rmr/1 450/1 20/1 shipping/1', '1[450,20:shipping]'],
    ['RMR was $500 now $420', 'rmr/1 was/1 500/1 now/1 420/1', '1[500:was,420]'],
    // one price for several items: a bundle, shared
    [
      '[WTS] Aimpoint T2, Trijicon mount, Holosun 507C - $900 for all',
      'wts aimpoint/1 t/1 2/1 trijicon/2 mount/2 holosun/3 507/3 c/3 900/3 for/3 all/3',
      '1[900] 2[900] 3[900]',
    ],
    // a price before its item
    ['$600 Aimpoint T2, $60 Trijicon mount', '600/1 aimpoint/1 t/1 2/1 60/2 trijicon/2 mount/2', '1[600] 2[60]'],
    ['[WTS] 5.56 M855 $0.45/rd', 'wts 556/1 m/1 855/1 0/1 45/1 rd/1', '1[0.45/round]'],
    ['Federal 9mm 1000 rds $280/1000', 'federal/1 9/1 mm/1 1000/1 rds/1 280/1 1000/1', '1[280,0.28/round]'],
  ]
  for (const [title, words, segs] of cases) {
    test(title, () => {
      const r = render(title)
      expect(r.words).toBe(words)
      expect(r.segs).toBe(segs)
    })
  }
})

describe('sides: [H]/[W] and want lines', () => {
  const cases: [string, string | undefined, string, string, boolean][] = [
    ['[USA-CA] [H] Trijicon RMR [W] Aimpoint T2', undefined, 'usa ca hH trijicon/1H rmr/1H wW aimpoint/2W t/2W 2/2W', '1h[] 2w[]', true],
    ['(H) RMR (W) T2', undefined, 'hH rmr/1H wW t/2W 2/2W', '1h[] 2w[]', true],
    ['Have: RMR Want: T2', undefined, 'haveH rmr/1H wantW t/2W 2/2W', '1h[] 2w[]', true],
    // "[W] $450 PayPal": the price is the have side's
    ['[USA-TX] [H] RTX 4070 [W] $450 PayPal', undefined, 'usa tx hH rtx/1H 4070/1H wW 450/2W paypal/2W', '1h[450] 2w[]', true],
    [
      '[WTS] Trijicon RMR',
      'Would take in trade: Aimpoint T2 or Sig P365',
      'wts trijicon/1 rmr/1 ‖ wouldW takeW inW tradeW aimpoint/2W t/2W 2/2W or/2W sig/2W p/2W 365/2W',
      '1[] 2w[]',
      true,
    ],
    [
      '[WTS/WTT] EOTech EXPS3',
      'Want:\nNightforce NX8\nS&B short dot\n\nThanks',
      'wts wtt eotech/1 exp/1 3/1 ‖ wantW nightforce/2W nx/2W 8/2W schmidt/3W bender/3W short/3W dot/3W thank',
      '1[] 2w[] 3w[]',
      true,
    ],
    ['[WTS] RMR', 'Looking to trade for a Holosun 507C', 'wts rmr/1 ‖ lookingW toW tradeW forW a/2W holosun/2W 507/2W c/2W', '1[] 2w[]', true],
    ['[WTS] RMR $400', 'No trades please', 'wts rmr/1 400/1 ‖ no trade please', '1[400]', false],
    // "looking for" is a want line, but not before a price, "offers" or "a quick sale"
    [
      '[H] Leupold VX-3 [W] cash',
      'Mostly looking for an EOTech G33',
      'hH leupold/1H vx/1H 3/1H wW cash/2W ‖ mostly lookingW forW an/3W eotech/3W g/3W 33/3W',
      '1h[] 2w[] 3w[]',
      true,
    ],
    ['[WTS] Leupold VX-3', 'Looking for $350 shipped', 'wts leupold/1 vx/1 3/1 ‖ looking for 350 shipped', '1[350]', false],
  ]
  for (const [title, body, words, segs, sided] of cases) {
    test(`${title}${body ? ' | ' + body.replace(/\n/g, '⏎') : ''}`, () => {
      const r = render(title, body)
      expect(r.words).toBe(words)
      expect(r.segs).toBe(segs)
      expect(r.sided).toBe(sided)
    })
  }
})

describe('body line items and the post’s price', () => {
  test('bullet lines are items with their prices; a price line without an item is the title item’s price', () => {
    const r = render('[WTS] Glock 19 Gen 5', 'Asking $450 shipped.\n\n- mags $20 each\n- holster $40')
    expect(r.segs).toBe('1[450] 2[20/each] 3[40]')
  })
  test('how to pay is no item: the price line is the title item’s price', () => {
    expect(render('[WTS] Trijicon RMR Type 2', 'Asking $375 shipped, PayPal G&S + fees or Zelle. 3.25 MOA LED.').segs).toBe('1[375]')
  })
  test('one title item and one priced body line are the same item', () => {
    expect(render('[WTS] Trijicon RMR', 'RMR Type 2 RM06, 3.25 MOA - $375 shipped').segs).toBe('1[375] 2[375]')
  })
  test('a want line ends with its sentence; the rest of the line is read on its own', () => {
    const r = render('[H] Holosun 507C, Romeo Zero [W] PVS-14, or PayPal', 'Want: PVS-14 or any decent nods. Otherwise 507C $240 / Romeo Zero $110 shipped.')
    expect(r.words).toContain('nod/4W otherwise/5 507/5 c/5 240/5 romeo/6 zero/6 110/6')
    expect(r.segs).toBe('1h[] 2h[] 3w[] 4w[] 5[240] 6[110]')
  })
  test('a title with its own price keeps it; body prose prices do not add to it', () => {
    expect(render('[WTS] RMR $400', 'Paid $500 last year. Asking 400 shipped').segs).toBe('1[400]')
  })
  test('a per-round price line among priced line items is an item of its own (ammunition), not the title’s price', () => {
    expect(render('[WTS] Ammo lot', '7.62x39 Wolf - 500 rds - $0.35/rd\n45 230gr - 200 rds - $0.52/rd').segs).toBe('1[] 2[0.35/round] 3[0.52/round]')
    expect(render('[WTS] Ammo lot', '45 230gr - 200 rds - $0.52/rd').segs).toBe('1[0.52/round] 2[0.52/round]')
  })
  test('a title piece naming a dictionary product by its model number is an item ("R9 390 8gb & Omen 32")', () => {
    expect(render('[USA-CA] [H] R9 390 8gb & Omen 32" 1440p [W] Local').segs).toBe('1h[] 2h[] 3w[]')
    expect(render('[WTS] Aimpoint T2 & H2').segs).toBe('1[]')
  })
  test('a "Price:" line under a numbered item and its description is that item’s price', () => {
    expect(render('[WTS] cards', '1. GTX 1080 Ti FTW3\nLike new.\nPrice: $650\n2. RX 580 8GB\nPrice: ~~$160~~ $150').segs).toBe('1[] 2[650] 3[160:was,150]')
  })
  test('loose body prices of a post with several unpriced title items are the shared context’s', () => {
    const p = preparePost({ title: '[WTS] Holosun 507K + 507C plate', content: '507K 230 shipped\nAsking $20 for the plate' })
    expect(p.segments[0]!.prices.map((x) => x.amount)).toEqual([230, 20])
  })
  test('numbered lines are items', () => {
    expect(render('[WTS] optics', '1. RMR $400\n2) SRO $500').segs).toBe('1[] 2[400] 3[500]')
  })
  test('a long body is read for structure only up to its first 20,000 characters', () => {
    const body = 'lorem ipsum '.repeat(2000) + '\n- RMR $400'
    expect(readBody(body).segments).toEqual([])
  })
})

describe('accessory-for mentions', () => {
  const cases: [string, string][] = [
    ['RMR-style mount', 'rmr/1! style/1 mount/1'],
    ['Holster for Glock 19', 'holster/1 for/1 glock/1! 19/1!'],
    ['Safariland holster for a Glock 19 - $60', 'safariland/1 holster/1 for/1 a/1 glock/1! 19/1! 60/1'],
    ['Glock 19 holster', 'glock/1! 19/1! holster/1'],
    ['Fits P365', 'fit/1 p/1! 365/1!'],
    ['T2 cut slide', 't/1! 2/1! cut/1 slide/1'],
    ['Slide with RMR footprint', 'slide/1 with/1 rmr/1!+ footprint/1+'],
    ['Mount compatible with Aimpoint T2', 'mount/1 compatible/1 with/1 aimpoint/1! t/1! 2/1!'],
    ['Bracelet for the Tudor Black Bay 36 $150', 'bracelet/1 for/1 the/1 tudor/1! black/1! bay/1! 36/1! 150/1'],
    ['Omega Speedmaster strap', 'omega/1 speedmaster/1! strap/1'],
    // a part named after the model it fits (a digit, or a short word in capitals)
    ['T2 mount', 't/1! 2/1! mount/1'],
    ['EOTech EXPS2 riser $40', 'eotech/1 exp/1! 2/1! riser/1 40/1'],
    ['SRO adapter plate', 'sro/1! adapter/1 plate/1'],
    ['Kimber K6 killflash', 'kimber/1^ k/1! 6/1! killflash/1'],
    ['T1/H1 spacer', 't/1! 1/1! h/1! 1/1! spacer/1'],
    // a product or category the dictionary knows is a model too
    ['Venom riser', 'venom/1! riser/1'],
    ['Suppressor mount, QD', 'suppressor/1! mount/1 qd/1'],
    // mags and barrels: the model number only (the maker may be the gun's: its name is marked ^, a maker's own part)
    ['Sig 320 mags', 'sig/1^ 320/1! mag/1'],
    ['Glock 26 OEM barrel', 'glock/1^ 26/1! oem/1 barrel/1'],
    // … unless another maker's name comes before the gun's brand: then the mags are that maker's
    ['KCI Glock 17 mags x2', 'kci/1 glock/1! 17/1! mag/1 x/1 2/1'],
    ['Faxon Sig 320 barrel $150', 'faxon/1 sig/1! 320/1! barrel/1 150/1'],
    ['OEM Glock 17 mags', 'oem/1 glock/1^ 17/1! mag/1'],
    ['Factory Glock 17 mags', 'factory/1 glock/1^ 17/1! mag/1'],
    // the item's last word is a part: the model words before it (back to "and" / "with")
    ['CZ P10C trigger kit - $90 shipped', 'cz/1! p/1! 10/1! c/1! trigger/1 kit/1 90/1 shipped/1'],
    ['HK VP9 Gen 2 OEM mags x3', 'heckler/1^ koch/1^ vp/1! 9/1! gen/1 2/1! oem/1 mag/1 x/1 3/1'],
    ['Sig P226 and P226 mags', 'sig/1 p/1 226/1 and/1 p/1! 226/1! mag/1'],
    ['Vortex Razor w/ Geissele mount $1500', 'vortex/1 razor/1 w/1 geissele/1+ mount/1+ 1500/1'],
    // what is mounted on the fitted product is part of the fit ("w/", "with", "+")
    ['Kydex holster for Sig P320 w/ TLR-1', 'kydex/1 holster/1 for/1 sig/1! p/1! 320/1! w/1 tlr/1!+ 1/1!+'],
    ['Holster (fits Walther PDP with X400)', 'holster/1 fit/1 walther/1! pdp/1! with/1 x/1!+ 400/1!+'],
    ['OWB holster for P365 + TLR-6 $45', 'owb/1 holster/1 for/1 p/1! 365/1! tlr/2! 6/2! 45/2'],
    ['Holster for Glock 17 with manual safety', 'holster/1 for/1 glock/1! 17/1! with/1 manual/1+ safety/1+'],
    // not mentions
    ['Aimpoint T2 with mount', 'aimpoint/1 t/1 2/1 with/1 mount/1+'],
    ['Geissele mount', 'geissele/1 mount/1'],
    ['Aimpoint Micro T-2 2MOA no mount - 629.00', 'aimpoint/1 micro/1 t/1 2/1 2/1 moa/1 no/1 mount/1 629/1 00/1'],
    ['Scalarworks LEAP mount', 'scalarwork/1 leap/1! mount/1'],
    ['[WTB] Looking for an RMR', 'wtb looking/1 for/1 an/1 rmr/1'],
    ['Glock 19 for $450', 'glock/1 19/1 for/1 450/1'],
    ['Trijicon RMR for sale', 'trijicon/1 rmr/1 for/1 sale/1'],
    ['Glock 19 for trade', 'glock/1 19/1 for/1 trade/1'],
  ]
  for (const [title, words] of cases) test(title, () => expect(render(title).words).toBe(words))

  test('a mention ends at a separator', () => {
    expect(render('Holster for Glock 19, Aimpoint T2 $600').words).toBe('holster/1 for/1 glock/1! 19/1! aimpoint/2 t/2 2/2 600/2')
  })
})

describe('replica items, items marked sold, extras (item-marks.ts)', () => {
  const cases: [string, string | undefined, string][] = [
    // a replica word marks its item; the other items of the listing are not replicas
    // a watch sold with its papers / warranty card / full set: its bracelet or strap is what it is worn on
    ['Tudor Pelagos 25600 Bracelet, box + papers $3900', undefined, 'tudor/1 pelago/1 25600/1 bracelet/1+ box/1 paper/2 3900/2'],
    ['Seiko SPB143 full set, NATO strap', undefined, 'seiko/1 spb/1 143/1 full/1 set/1 nato/2 strap/2+'],
    ['Tudor Pelagos bracelet 22mm $300', undefined, 'tudor/1 pelago/1! bracelet/1 22/1 mm/1 300/1'],
    ['Tokyo Marui Hi-Capa GBB $180, Holosun 407K $230', undefined, 'tokyo/1% marui/1% hi/1% capa/1% gbb/1% 180/1% holosun/2 407/2 k/2 230/2'],
    ['M4 AEG replica', undefined, 'm/1% 4/1% aeg/1% replica/1%'],
    ['Gel blaster MP5', undefined, 'gel/1% blaster/1% mp/1% 5/1%'],
    // in the title's shared context: the whole post
    ['[Airsoft] KWA M9 - $120', 'Green gas', 'airsoft% kwa/1% m/1% 9/1% 120/1% ‖ green% gas%'],
    // negated: no mark
    ['Real steel Sig P226, not airsoft', undefined, 'real/1 steel/1 sig/1 p/1 226/1 not/2 airsoft/2'],
    // sold inside a multi-item listing: that item only; "sold as a set" is no mark
    ['Vortex Venom $150 SOLD, Holosun 403B $120', undefined, 'vortex/1× venom/1× 150/1× sold/1× holosun/2 403/2 b/2 120/2'],
    ['~~Streamlight TLR-1~~, Modlite OKW $250', undefined, 'streamlight/1× tlr/1× 1/1× modlite/2 okw/2 250/2'],
    ['Scope and rings sold as a set $900', undefined, 'scope/1 and/1 ring/1 sold/1 as/1 a/1 set/1 900/1'],
    // extras: after w/, with, includes, comes on, + free; before "included"
    ['Leupold Mark 4 w/ Badger rings $700', undefined, 'leupold/1 mark/1 4/1 w/1 badger/1+ ring/1+ 700/1'],
    ['Vortex Razor 1-6 comes on a Geissele mount', undefined, 'vortex/1 razor/1 1/1 6/1 come/1 on/1 a/1 geissele/1+ mount/1+'],
    ['Sig P229 $700 + free holster', undefined, 'sig/1 p/1 229/1 700/1 free/2 holster/2+'],
    ['Tudor Pelagos on rubber strap $3500', undefined, 'tudor/1 pelago/1 on/1 rubber/1!+ strap/1+ 3500/1'],
    ['Seiko SPB143 on Uncle Seiko tropic strap', undefined, 'seiko/1 spb/1 143/1 on/1 uncle/1+ seiko/1+ tropic/1!+ strap/1+'],
    ['Dan Henry 1970 with extra leather strap', undefined, 'dan/1 henry/1 1970/1 with/1 extra/1 leather/1!+ strap/1+'],
    ['Holosun 509T, shroud included', undefined, 'holosun/1 509/1 t/1 shroud/2+ included/2'],
    // a body sentence that says sold, in a listing of several items
    [
      '[WTS] Vortex Venom $150, Holosun 403B $120',
      'Venom sold to a friend. 403B still here.',
      'wts vortex/1 venom/1 150/1 holosun/2 403/2 b/2 120/2 ‖ venom× sold× to× a× friend× 403 b still here',
    ],
    ['Federal 9mm 500 rds $150 free shipping', undefined, 'federal/1 9/1 mm/1 500/1 rds/1 150/1 free/1 shipping/1'],
  ]
  for (const [title, body, words] of cases) test(title, () => expect(render(title, body).words).toBe(words))
})

describe('guards: linear in the text length', () => {
  const adversarial = [
    '$1,'.repeat(35_000),
    'for '.repeat(25_000),
    'rmr style '.repeat(10_000),
    'airsoft sold w/ '.repeat(6_000),
    '~~a, '.repeat(20_000),
    'T2 mount w/ a '.repeat(7_000),
    'Glock 19 mags 3 '.repeat(6_000),
    'RMR sold. fits T2 / '.repeat(5_000),
    '[h] [w] '.repeat(12_500),
    'a - $5 - '.repeat(11_000),
    'a, '.repeat(33_000),
    '1'.repeat(100_000),
  ]
  for (const text of adversarial) {
    test(`100 kB title and body: ${JSON.stringify(text.slice(0, 12))}…`, () => {
      const t0 = performance.now()
      readTitle(text)
      preparePost({ title: text, content: text })
      expect(performance.now() - t0).toBeLessThan(3000)
    })
  }
})
