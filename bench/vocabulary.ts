// Realistic, seeded vocabulary for the matcher bench: products people trade on gun/gear forums,
// terms users save (popular products saved by many, a long tail saved by few) and posts
// (WTS/WTB/deal titles with prices, bodies with filler and other items).

export type Rng = () => number

/** mulberry32: small, fast, deterministic. */
export function rng(seed: number): Rng {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}
const pick = <T>(r: Rng, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!
/** Zipf-like pick: index ~ n * u^skew, so early entries are much more popular. */
const zipf = <T>(r: Rng, xs: readonly T[], skew = 2.2): T => xs[Math.floor(xs.length * Math.pow(r(), skew))]!

type Product = { brand: string; model: string; kind: string; price: [number, number]; variants?: string[] }

const P = (brand: string, models: string, kind: string, price: [number, number], variants?: string): Product[] =>
  models.split(',').map((model) => ({ brand, model: model.trim(), kind, price, variants: variants?.split(',') }))

export const PRODUCTS: Product[] = [
  ...P('Trijicon', 'RMR, SRO, RMRcc, ACOG TA31, MRO, Accupoint, RMR Type 2, TA02', 'optic', [350, 1400], 'RM06,RM07,RM08,3.25 MOA,6.5 MOA,adjustable'),
  ...P('Holosun', '507c, 508t, 407c, 507k, EPS Carry, 509t, 510c, HE507c, 403b, SCS', 'optic', [180, 450], 'x2,green,ACSS,2 MOA,32 MOA'),
  ...P('EOTech', 'EXPS3, EXPS2, XPS2, XPS3, 512, 552, G33 magnifier, G45, Vudu 1-6', 'optic', [400, 900], '0,2,-0,-2'),
  ...P('Aimpoint', 'T2, H2, Micro T-2, PRO, COMP M4s, ACRO P-2, CompM5, T1', 'optic', [450, 1000], '2 MOA,4 MOA,LRP mount'),
  ...P('Leupold', 'Mark 5HD, VX-3HD, DeltaPoint Pro, Mark 4, VX-Freedom, Mark 3HD', 'optic', [300, 2500], '5-25x56,3-18x44,1-6x24'),
  ...P('Vortex', 'Razor Gen III, Strike Eagle, Viper PST, Venom, Crossfire, Razor HD Gen II, Spitfire', 'optic', [150, 2000], '1-6,1-10,5-25,3x'),
  ...P('Nightforce', 'ATACR, NX8, SHV, NXS', 'optic', [1200, 3500], '4-16x42,1-8x24,5-25x56'),
  ...P('Primary Arms', 'SLx 1-6, GLx 2.5x, PLx 1-8, Classic', 'optic', [150, 1400]),
  ...P('Sig', 'Romeo Zero, Romeo 5, Romeo X, Tango6T, Romeo1 Pro, Romeo4', 'optic', [120, 900]),
  ...P('Glock', '19, 17, 19X, 26, 43X, 48, 45, 34, 20, 21, 22, 23, 29, 30, 40, 47, 49, G43X MOS', 'pistol', [400, 700], 'Gen5,Gen4,Gen3,MOS,FDE,OD'),
  ...P(
    'Sig Sauer',
    'P365, P365XL, P365X, P320, M17, M18, P226, P229, P365 Macro, P320 AXG, P210, MCX Spear',
    'pistol',
    [450, 1500],
    'X-Carry,Legion,manual safety,Compact',
  ),
  ...P('Smith & Wesson', 'M&P 2.0, Shield Plus, M&P 15, 686, 629, CSX, Equalizer, M&P9 Metal', 'pistol', [350, 1200], '4",5",Compact,Performance Center'),
  ...P('CZ', 'P-10C, Shadow 2, P-09, 75 SP-01, Scorpion Evo 3, P-07, TS2, Bren 2', 'pistol', [450, 1600], 'Orange,Urban Grey,Optics Ready'),
  ...P('HK', 'VP9, P30, USP, P2000, HK45, MR556, SP5, P30SK', 'pistol', [600, 3000], 'LEM,V1,V3,Tactical'),
  ...P('Springfield', 'Hellcat, Echelon, XD-M, Prodigy, 1911 Garrison', 'pistol', [450, 1300]),
  ...P('Ruger', 'LCP Max, Mark IV, 10/22, SP101, GP100, Max-9, PC Carbine, Security-9', 'pistol', [250, 800]),
  ...P('Walther', 'PDP, PPQ, Q5 Match, PPS M2, PDP-F', 'pistol', [450, 1300]),
  ...P('Staccato', 'P, C2, XC, CS', 'pistol', [1800, 3500], 'DPO,Duo'),
  ...P('BCM', 'Recce-16, Recce-14, upper, BCG, Gunfighter charging handle, MCMR', 'rifle', [150, 1600], '14.5,16,Mod 4,MCMR 13'),
  ...P('Aero Precision', 'M4E1 upper, M4E1 lower, Atlas S-One handguard, EPC-9', 'rifle', [100, 1000], 'FDE,Black,Cerakote'),
  ...P('Daniel Defense', 'DDM4 V7, MK18, RIS II, DD5 V4, Delta 5', 'rifle', [700, 2400]),
  ...P('LMT', 'MARS-L, CQB16, Defender 2000', 'rifle', [1200, 2400]),
  ...P('Geissele', 'SSA-E, SMR Mk4, Super 42, MK16 rail, Super Dynamic', 'rifle', [150, 700], 'DDC,Black'),
  ...P('Larue', 'PredatAR, OBR, LT104 mount', 'rifle', [150, 2500]),
  ...P('Arisaka', 'offset mount, scout mount, 300 mount, inline mount, light mount', 'accessory', [40, 90]),
  ...P(
    'Magpul',
    'PMAG 30, PMAG 20, PMAG 40, MOE grip, CTR stock, BAD lever, MBUS Pro, ZHUKOV, PMAG D-60, Glock 21 PMAG',
    'magazine',
    [12, 120],
    'Gen M3,window,FDE,black,Gen M2',
  ),
  ...P('Lancer', 'L5AWM, L7AWM', 'magazine', [15, 30]),
  ...P('SureFire', 'X300U, X300 Ultra, M600DF, M640, XC1, X300T, Scout Pro, EDCL2, Turbo', 'light', [120, 450], 'A,B,V,DF'),
  ...P('Streamlight', 'TLR-1, TLR-7, TLR-1 HL, TLR-8, TLR-7 Sub, ProTac, TLR-1 HPL, Wedge', 'light', [70, 250], 'A,G,X'),
  ...P('Modlite', 'OKW, PLHv2, PL350, OKW-18350, PLHv2-18650', 'light', [200, 400], 'head,body,complete'),
  ...P('Cloud Defensive', 'REIN, OWL, MCH, LCS', 'light', [150, 400]),
  ...P('Safariland', '7TS, 6354DO, 6378, ALS holster, QLS', 'holster', [30, 180], 'Glock 19,P365'),
  ...P('Tier 1 Concealed', 'Axis Elite, Axis Slim, Xiphos', 'holster', [60, 140]),
  ...P('PHLster', 'Floodlight, Enigma, Skeleton, City Special', 'holster', [60, 250], 'TLR-7,X300'),
  ...P('Crye', 'JPC, AVS, CPC, LVS, G3 combat pants, AC pants', 'gear', [100, 700], 'Multicam,Ranger Green,Coyote'),
  ...P('Ferro Concepts', 'Slickster, FCPC V5, ADAPT belt, Chest rig', 'gear', [60, 350], 'Multicam,Ranger Green'),
  ...P('Peltor', 'Comtac V, Comtac VI, Comtac III, Sport Tactical 500', 'gear', [150, 900]),
  ...P('PVS', '14, 31, 7', 'nv', [2500, 9000], 'L3,Elbit,white phosphor,green'),
  ...P('Surefire', 'SOCOM556-RC2, SOCOM RC3, Warden', 'suppressor', [400, 1500]),
  ...P('Dead Air', 'Sandman-S, Nomad-30, Wolfman, Primal', 'suppressor', [600, 1400]),
  ...P('Rugged', 'Obsidian 9, Obsidian 45, Radiant 762, Surge', 'suppressor', [600, 1200]),
  ...P('Federal', '9mm 124gr HST, 9mm 147gr HST, 5.56 M855, 5.56 M193, .223 55gr, 6.5 Creedmoor 140gr', 'ammo', [60, 600], '50 rounds,1000 rounds,500rds,case'),
  ...P('Speer', 'Gold Dot 124gr, Gold Dot 147gr, Lawman 9mm', 'ammo', [40, 400], '50 rounds,1000 rounds'),
  ...P('Hornady', '6.5 Creedmoor ELD Match, .308 168gr, 6.5 PRC, Critical Defense 9mm', 'ammo', [30, 600], '20 rounds,200 rounds'),
  ...P('Winchester', 'White Box 9mm 115gr, M855 Green Tip, Ranger T 9mm, USA Forged', 'ammo', [60, 500], '1000 rounds,case'),
  ...P('Tikka', 'T3x CTR, T3x TAC A1, T3x Lite', 'rifle', [800, 2000], '6.5 Creedmoor,308'),
  ...P('Vudoo', 'V-22', 'rifle', [1500, 2800]),
  ...P('Benelli', 'M4, M2, Nova, SuperNova', 'shotgun', [500, 2200]),
  ...P('Beretta', '1301 Tactical, A300 Ultima, 92FS, 92X, APX A1, 80X Cheetah', 'pistol', [500, 1600]),
  ...P('FN', '509 Tactical, Five-seveN, SCAR 17S, SCAR 16S, PS90, 545, 502, FN 15', 'rifle', [600, 4000], 'FDE,Black'),
  ...P('Kel-Tec', 'Sub2000, KSG, PMR-30, P17', 'pistol', [250, 600]),
  ...P('Wilson Combat', 'EDC X9, 1911, Tactical Supergrade', 'pistol', [2500, 4500]),
  ...P('Zev', 'OZ9, trigger, slide', 'pistol', [200, 1600]),
  ...P('Unity Tactical', 'FAST mount, FAST Micro, Hot Button, Axon', 'accessory', [50, 200], '2.26,2.91'),
  ...P('Scalarworks', 'LEAP, PEAK, SYNC, Kick', 'accessory', [80, 250], '1.57,1.93,30mm,34mm'),
  ...P('Reptilia', 'DOT mount, AUTUS, ROF-90', 'accessory', [100, 220]),
  ...P('Badger', 'Condor mount, Ordnance C1 scope mount', 'accessory', [150, 300]),
]

const TAG = {
  wts: ['[WTS]', '[WTS]', 'WTS:', '[WTS/WTT]', '[FS]'],
  wtb: ['[WTB]', 'WTB:', '[WTB] Looking for'],
  gd: ['[Optic]', '[Handgun]', '[Ammo]', '[Light]', '[Rifle]', '[Deal]', '[Mag]'],
}
const EXTRAS = [
  'like new',
  'LNIB',
  'used',
  'w/ box',
  'with mount',
  'trade for',
  'price drop',
  'OBO',
  'bundle',
  'w/ extras',
  '+ 3 mags',
  'free shipping',
  'lot',
  'NIB',
  'barely used',
  'holster included',
  '(Texas)',
  'FTF only',
  'w/ case',
]
const GENERIC = [
  'holster',
  'sling',
  'mount',
  'riser',
  'lower',
  'upper',
  'barrel',
  'trigger',
  'stock',
  'handguard',
  'suppressor',
  'bcg',
  'optic',
  'red dot',
  'magnifier',
  'light',
  'mag',
  'magazines',
  'plate carrier',
  'chest rig',
  'belt',
  'ammo',
  'slide',
  'grip',
  'comp',
  'brake',
  'night vision',
  'lpvo',
  'scope',
  'case',
  'pouch',
  'helmet',
  'nods',
  'laser',
  'peq',
  'dbal',
]
const FILLER = (
  'Selling because I upgraded. Comes with original box and all paperwork. Shipping to lower 48 only, ' +
  'buyer pays fees. Timestamps in the album. No trades please unless it is something interesting. ' +
  'Round count is low, maybe 500 rounds through it. Cleaned and lubed. Happy to answer questions by chat. ' +
  'Price is firm, not looking for lowballs. Paypal F&F or Zelle preferred. Will ship within two days ' +
  'of payment. Local pickup possible in the area. Check my confirmed trades in the flair. Has some holster ' +
  'wear on the finish but works perfectly. Zeroed at 50 yards. Battery included. Glass is clear, no scratches'
).split(/(?<=\.) /)
const OTHERS = ['Also have', 'Will consider trades for', 'Plus', 'Bundle discount with', 'Not included:', 'Looking for']

function words(p: Product): string {
  return `${p.brand} ${p.model}`
}

/** A saved term as a user would type it; most are plain words, some use the operators. */
export function makeTerm(r: Rng): string {
  const p = zipf(r, PRODUCTS, 1.6)
  const lc = (s: string) => s.toLowerCase()
  const x = r()
  if (x < 0.3) return lc(p.model)
  if (x < 0.5) return lc(words(p))
  if (x < 0.58) return `"${lc(p.model)}"`
  if (x < 0.64) return lc(p.brand.split(' ')[0]!.slice(0, 4 + Math.floor(r() * 3))) + '*'
  if (x < 0.71) return `${lc(p.model)} -${pick(r, ['airsoft', 'replica', 'clone', '"for parts"', 'broken', 'gel'])}`
  if (x < 0.77) return `${lc(p.model)} | ${lc(zipf(r, PRODUCTS).model)}`
  if (x < 0.84) return `${lc(p.model)} <$${Math.round((p.price[0] + r() * (p.price[1] - p.price[0])) / 10) * 10}`
  if (x < 0.9 && p.variants) return `${lc(p.model)} ${lc(pick(r, p.variants))}`
  if (x < 0.95) return `${lc(p.brand.split(' ')[0]!)} ${pick(r, GENERIC)}`
  // Long tail: rarer combinations and model-number style words.
  return `${lc(p.model)} ${pick(r, GENERIC)} ${pick(r, ['fde', 'od', 'black', 'gen5', 'gen3', 'green', 'tan', 'ranger green', 'multicam'])}`
}

export type Category = 'wts' | 'wtb' | 'gd'
export type BenchPost = { title: string; content: string; category: Category }

export function makePost(r: Rng): BenchPost {
  const x = r()
  const category: Category = x < 0.5 ? 'wts' : x < 0.75 ? 'wtb' : 'gd'
  const p = zipf(r, PRODUCTS, 1.4)
  const price = Math.round(p.price[0] + r() * (p.price[1] - p.price[0]))
  const variant = p.variants && r() < 0.6 ? ' ' + pick(r, p.variants) : ''
  const extra = r() < 0.6 ? ' ' + pick(r, EXTRAS) : ''
  const money = r() < 0.15 ? `${price}$` : price >= 1000 && r() < 0.3 ? `$${(price / 1000).toFixed(1)}k` : `$${price.toLocaleString('en-US')}`
  let title: string
  if (category === 'wts') title = `${pick(r, TAG.wts)} ${words(p)}${variant}${extra} - ${money}${r() < 0.5 ? ' shipped' : ''}`
  else if (category === 'wtb') title = `${pick(r, TAG.wtb)} ${words(p)}${variant}${r() < 0.5 ? ` - budget ${money}` : ''}`
  else
    title = `${pick(r, TAG.gd)} ${words(p)}${variant} - ${money}${r() < 0.4 ? ` (${pick(r, ['$20 off', 'free shipping', 'code SAVE10', 'lowest ever'])})` : ''}`
  const body: string[] = []
  const n = 2 + Math.floor(r() * 8)
  for (let i = 0; i < n; i++) {
    if (r() < 0.3) {
      const o = zipf(r, PRODUCTS, 1.2)
      body.push(
        `${pick(r, OTHERS)} ${words(o)}${o.variants && r() < 0.5 ? ' ' + pick(r, o.variants) : ''} for $${Math.round(o.price[0] + r() * (o.price[1] - o.price[0]))}.`,
      )
    } else body.push(pick(r, FILLER))
  }
  return { title, content: body.join(' '), category }
}
