// Real Reddit titles recorded in a public repository, labelled from intent with a short term list per forum.
// Source (verbatim titles, no bodies, flairs or authors were recorded there):
//   repository sudo-dco/buildapcsalesbot, path tests/posts.test.js, commit c2b92ed19c8a8134246f9da6b69fc34fd27bde1e
//   (`bps`: 25 r/buildapcsales titles, `hws`: 25 r/hardwareswap titles, January 2021, each with its permalink id).
// Categories: buildapcsales is a deals forum (gd); a hardwareswap title is wts when [W] names payment or goods
// are on the [H] side, wtb when [H] names payment. Labelling rules: tests/quality/README.md and real/README.md.
import type { QualityPost, QualityTerm } from '../types'

export type RealSet = {
  name: string
  source: { repository: string; path: string; commit: string; note: string }
  terms: QualityTerm[]
  posts: QualityPost[]
}

const SOURCE = {
  repository: 'sudo-dco/buildapcsalesbot',
  path: 'tests/posts.test.js',
  commit: 'c2b92ed19c8a8134246f9da6b69fc34fd27bde1e',
  note: 'titles recorded verbatim from r/buildapcsales and r/hardwareswap (Jan 2021); post ids are the Reddit ids',
}

function post(id: string, category: 'wts' | 'wtb' | 'gd', title: string, want: string[]): QualityPost {
  return { id, category, title, body: null, flair: null, author: null, authorFlair: null, want }
}

// prettier-ignore
const HWS_TERMS: QualityTerm[] = [
  { id: 'hw:gpu', category: 'wts', text: 'gpu', kind: 'category' },
  { id: 'hw:rtx3070', category: 'wts', text: 'rtx 3070', kind: 'brand-model' },
  { id: 'hw:3090', category: 'wts', text: '3090', kind: 'model' },
  { id: 'hw:ddr4', category: 'wts', text: 'ddr4', kind: 'category' },
  { id: 'hw:laptop', category: 'wts', text: 'laptop', kind: 'category' },
  { id: 'hw:cpu', category: 'wts', text: 'cpu', kind: 'category' },
  { id: 'hw:ryzen', category: 'wts', text: 'ryzen', kind: 'brand-model' },
  { id: 'hw:sf750', category: 'wts', text: 'sf750', kind: 'model' },
  { id: 'hw:sf600', category: 'wts', text: 'sf600', kind: 'model' },
  { id: 'hw:switch', category: 'wts', text: 'nintendo switch', kind: 'brand-model' },
  { id: 'hw:g14', category: 'wts', text: 'g14', kind: 'model' },
  { id: 'hw:noctua', category: 'wts', text: 'noctua', kind: 'brand-model' },
  { id: 'hw:monitor', category: 'wts', text: 'monitor', kind: 'category' },
  { id: 'hw:pixel', category: 'wts', text: 'pixel 4a', kind: 'model' },
  { id: 'hw:airpods', category: 'wts', text: 'airpods', kind: 'model' },
  { id: 'hwb:gpu', category: 'wtb', text: 'gpu', kind: 'category' },
  { id: 'hwb:ryzen', category: 'wtb', text: 'ryzen', kind: 'brand-model' },
  { id: 'hwb:airpods', category: 'wtb', text: 'airpods', kind: 'model' },
  { id: 'hwb:fans', category: 'wtb', text: 'fans', kind: 'category' },
  { id: 'hwb:rtx2060', category: 'wtb', text: 'rtx 2060', kind: 'brand-model' },
  { id: 'hwb:rtx3070', category: 'wtb', text: 'rtx 3070', kind: 'brand-model' },
  { id: 'hwb:3090', category: 'wtb', text: '3090', kind: 'model' },
]

// prettier-ignore
const HWS_POSTS: QualityPost[] = [
  post('l3ogpv', 'wts', '[USA-TX] [H] Asus G14 [W] PayPal, local cash', ['hw:laptop', 'hw:g14']),
  post('l3ogiz', 'wts', '[USA-NYC][H] GTX 650, TCL 32S327, Monitors,HDDs, 10.5 iPad Smart Cover, A320m mobo, Local Cash [W] Local Cash, 34in Ultrawide Monitor, Pascale Cards', ['hw:gpu', 'hw:monitor']),
  post('l3og44', 'wts', '[USA-NC] [H] BNIB 3600 16GB DDR4 OWL Memory [W] Local Cash/Paypal', ['hw:ddr4']),
  post('l3ofhc', 'wts', '[USA-NY] [H] Lenovo ThinkCentre m73 Tiny i3-4130T 4GB/500GB [W] PayPal', []),
  post('l3of3r', 'wts', '[USA-VA] [H] Like New Microsoft Surface Laptop 3 i7 10th gen, 16GB Ram, 256GB SSD, Oculus Quest 1 with many accessories, Elgato Streamdeck, Surface Laptop 2017 i5 4GB 128 [W] Local Cash and Paypal', ['hw:laptop']),
  post('l3odp2', 'wtb', '[USA-MA] [H] PayPal, Local Cash [W] RX 580 8gb', ['hwb:gpu']),
  post('l3ocwk', 'wts', '[US-LA][H] Michael Kors Smartwatch mkt5049 [W] Paypal', []),
  post('l3oco0', 'wts', '[USA-NC] [H] Nintendo Switch V2 Tablet, Samsung Galaxy Active 2, iPod Nano 6th gen, Logitech iPad Pro 12.9" keyboard case [W] PayPal, Kindle Oasis', ['hw:switch']),
  post('l3occc', 'wts', '[USA-FL] [H] ASUS Strix OC RTX 3070 [W] Paypal', ['hw:gpu', 'hw:rtx3070']),
  post('l3oa1i', 'wtb', '[USA NC] [H] PayPal [W] Bent or Broken Ryzen CPUs', ['hwb:ryzen']),
  post('l3o9v4', 'wts', '[USA-CA][H] Corsair SF 750 [W] Corsair SF 600', ['hw:sf750']),
  post('l3o9mk', 'wts', '[USA-NYC] [H] Google Pixel 4a Unlocked [W] Paypal, Cash', ['hw:pixel']),
  post('l3o963', 'wts', '[USA-OH] [H] ASUS UX430UN, Lenovo Yoga 2 Pro, Ubiquiti USG x2, Surface Dock, Surface Chargers, Dell D3100 USB 3.0 Dock, HDHomeRun Prime, R7770, Misc. Gigabit Switches + Routers [W] PayPal', ['hw:laptop', 'hw:gpu']),
  post('l3o79c', 'wts', '[USA-FL] [H] Logitech PowerPlay mousepad [W] PayPal', []),
  post('l3o6eq', 'wts', '[USA-WA] [H] Gigabyte GTX 1080 Windforce OC [W] PayPal', ['hw:gpu']),
  post('l3o6cw', 'wts', '[USA-FL][H] S20+ Plus 5G [W] PayPal', []),
  post('l3o5iw', 'wts', '[USA-PA][H] Lightly used Xbox Elite Series 2 Controller [W] PayPal', []),
  post('l3o3zx', 'wtb', '[USA-IL][H] PayPal [W] budget build parts', []),
  post('l3o1m8', 'wts', '[USA-CA][H]i9-9900k [W] PayPal, local cash', ['hw:cpu']),
  post('l3o1fy', 'wtb', '[USA-MA] [H] Paypal [W] Ryzen 5 3600 or Ryzen 7 2700X, GTX 1660 Super/ti, RTX 2060, or RTX 2080', ['hwb:gpu', 'hwb:ryzen', 'hwb:rtx2060']),
  post('l3o14f', 'wtb', '[USA-GA] [H] Paypal [W] AirPods Gen 2', ['hwb:airpods']),
  post('l3nx7r', 'wts', '[USA-CA] [H] EVGA 3090 FTW3 ULTRA, 3090 FE [W] Local Cash', ['hw:gpu', 'hw:3090']),
  post('l3nsf7', 'wtb', '[USA-NV] [H] Local Cash, Paypal [W] RTX 3000 series card or Radeon 6000 series card', ['hwb:gpu', 'hwb:rtx3070', 'hwb:3090']),
  post('l3ns7x', 'wtb', '[USA-NM] [H] PayPal or Local Cash [W] (2x) Corsair ML 120 Pro RGB Fans, (2x) Corsair ML140 Pro (non-RGB) Fans', ['hwb:fans']),
  post('l3nrph', 'wts', '[USA-CA] [H] 2600x, 2x(2x8GB Corsair 3200 CL16), Noctua D15 [W] Paypal', ['hw:cpu', 'hw:ryzen', 'hw:ddr4', 'hw:noctua']),
]

// prettier-ignore
const BPS_TERMS: QualityTerm[] = [
  { id: 'pc:gpu', category: 'gd', text: 'gpu', kind: 'category' },
  { id: 'pc:gtx1650', category: 'gd', text: 'gtx 1650', kind: 'brand-model' },
  { id: 'pc:rtx2060', category: 'gd', text: 'rtx 2060', kind: 'brand-model' },
  { id: 'pc:psu<100', category: 'gd', text: 'psu <$100', kind: 'price' },
  { id: 'pc:sf750', category: 'gd', text: 'sf750', kind: 'model' },
  { id: 'pc:corsair', category: 'gd', text: 'corsair', kind: 'brand-model' },
  { id: 'pc:ram<90', category: 'gd', text: 'ram <$90', kind: 'price' },
  { id: 'pc:5600x', category: 'gd', text: '5600x', kind: 'model' },
  { id: 'pc:b550', category: 'gd', text: 'b550', kind: 'model' },
  { id: 'pc:mouse', category: 'gd', text: 'mouse', kind: 'category' },
  { id: 'pc:fans', category: 'gd', text: 'fans', kind: 'category' },
  { id: 'pc:aio<80', category: 'gd', text: 'aio <$80', kind: 'price' },
  { id: 'pc:165hz', category: 'gd', text: '165hz monitor', kind: 'category' },
  { id: 'pc:evga', category: 'gd', text: 'evga', kind: 'brand-model' },
  { id: 'pc:laptop', category: 'gd', text: 'laptop', kind: 'category' },
  { id: 'pc:hdd', category: 'gd', text: 'hdd', kind: 'category' },
  { id: 'pc:headphones', category: 'gd', text: 'headphones', kind: 'category' },
  { id: 'pc:logitech', category: 'gd', text: 'logitech', kind: 'brand-model' },
  { id: 'pc:ryzen', category: 'gd', text: 'ryzen', kind: 'brand-model' },
  { id: 'pc:mobo<130', category: 'gd', text: 'motherboard <$130', kind: 'price' },
  { id: 'pc:3600', category: 'gd', text: 'ryzen 5 3600', kind: 'brand-model' },
]

// prettier-ignore
const BPS_POSTS: QualityPost[] = [
  post('l3o5k6', 'gd', '[RAM] Corsair Vengeance (2 X 8GB) 3600 - $83', ['pc:corsair', 'pc:ram<90']),
  post('l3nurx', 'gd', '[MOBO] MSI x470 gaming plus MAX - $89.99 (In-stock FEB 3rd?)', ['pc:mobo<130']),
  post('l3nm27', 'gd', '[PSU] Corsair SF600 SFX PSU - $114.99', ['pc:corsair']),
  post('l3ncop', 'gd', '[GPU] EVGA GeForce GTX 1660 XC GAMING $289.99 (Newegg)', ['pc:gpu', 'pc:evga']),
  post('l3m5ed', 'gd', '[Laptop] Lenovo Legion Y540 15" 1080p, i5-9300HF, RTX 2060, 12 GB DDR4, 512 GB PCIe SSD Gaming Laptop - $640 (GOLD*PERKS TO LOGIN)', ['pc:laptop']),
  post('l3jtce', 'gd', '[FAN] LIAN LI SL120 UNI FAN BLACK 3 PACK W/ CONTROLLER | $106.39', ['pc:fans']),
  post('l3jpck', 'gd', '[PSU] Corsair SF750 SFX PSU - $182.96', ['pc:sf750', 'pc:corsair']),
  post('l3jmlw', 'gd', '[Cooler] Cooler Master MasterLiquid ML240L RGB 240MM - $52 ($74.99 - $8 promo code - $15 MIR)', ['pc:aio<80']),
  post('l3h54d', 'gd', '[PSU] EVGA 500 GD, 80+ GOLD 500W, 5 Year Warranty, Power Supply 100-GD-0500-V1 -$69.99', ['pc:psu<100', 'pc:evga']),
  post('l3guxf', 'gd', '[PSU] Corsair VS600 600W 80+ White power supply - $43.99 FS ($59.99-$16)', ['pc:psu<100', 'pc:corsair']),
  post('l3eiks', 'gd', '[Monitor] Lenovo Legion y27q-20 27" 2560x1440 IPS 165hz Monitor - $359.99 with code LENMONITOR10 (GOLD*PERKS TO LOGIN)', ['pc:165hz']),
  post('l3dsy7', 'gd', '[CPU] AMD Ryzen 3 3300X Quad core 4 Core 3.80 GHz Processor - $145.99 (Officemax)', ['pc:ryzen']),
  post('l3bdh5', 'gd', '[RGB][RGB Strip] 12" (300mm) Airgoo 12V, 4-Pin RGB strips, 17% off (3pc kit $23.99 - $4.07 = $19.98 [$6.66/strip] ; 2pc kit $17.99 - $3.01 = $14.98 [$7.49/strip]', []),
  post('l3bal7', 'gd', '[Mouse]Logitech G Pro X Superlight Wireless Gaming Mouse - $149.99 (is currently in stock!)', ['pc:mouse', 'pc:logitech']),
  post('l3b5oe', 'gd', '[FAN] 3-Pack upHere 120mm PWM 4-Pin RGB Case Fans - $15.19', ['pc:fans']),
  post('l38s2f', 'gd', '[Headphones] Sony WH-H910N Bluetooth Noise Canceling Headphones - $99.99', ['pc:headphones']),
  post('l38qw9', 'gd', '[HDD] Seagate Exos X10 10TB 512e SATA 6Gb/s 7200RPM 3.5-Inch Enterprise HDD - $204.99', ['pc:hdd']),
  post('l38p8d', 'gd', '[CPU]Ryzen 5 5600X - $299.99 (0)', ['pc:5600x', 'pc:ryzen']),
  post('l38mlr', 'gd', '[MOBO] ASUS ROG STRIX B450-F GAMING - $119.99 (Code: EMCEHSS25)', ['pc:mobo<130']),
  post('l38ebd', 'gd', '[RAM] GeIL ORION 32GB (2 x 16GB) 3200 CL 16- $102.99 (Code: EMCEHSS27)', []),
  post('l36j77', 'gd', '[Mouse]Logitech - G403 (Hero) Wired Optical Gaming Mouse - Black $29.99 [$49.99-20.00]', ['pc:mouse', 'pc:logitech']),
  post('l36dcb', 'gd', '[Case] Mastercase H500M Dual 200mm ARGB @ Amazon.com - $179 ($239-60)', []),
  post('l354mz', 'gd', '[GPU] EVGA GTX 1650 KO GDDR6 GAMING - $159.99 (in-stock)', ['pc:gpu', 'pc:gtx1650', 'pc:evga']),
  post('l34uum', 'gd', '[GPU] EVGA GTX 1650 SUPER SC ULTRA GAMING 4GB - $189 (In-Stock)', ['pc:gpu', 'pc:gtx1650', 'pc:evga']),
  post('l34ihr', 'gd', '[MOBO] MSI MAG B550 TOMAHAWK - $159.99 (179.99 - 20) code: EMCEHSH54', ['pc:b550']),
]

export const REAL_SETS: RealSet[] = [
  { name: 'r/hardwareswap', source: SOURCE, terms: HWS_TERMS, posts: HWS_POSTS },
  { name: 'r/buildapcsales', source: SOURCE, terms: BPS_TERMS, posts: BPS_POSTS },
]
