import { describe, expect, test } from 'bun:test'
import { compileTerm, matchesPost, preparePost } from '../../../src/matching/compile'
import { parseTerm } from '../../../src/matching/parse'

function matches(term: string, title: string, content = ''): boolean {
  const parsed = parseTerm(term)
  if (!parsed.ok) throw new Error(`test term did not parse: ${term}: ${parsed.error}`)
  return matchesPost(compileTerm(parsed.query), preparePost({ title, content }), 'wts')
}

// [behaviour, term, title, body, expected]
const cases: [string, string, string, string, boolean][] = [
  // words
  ['a word matches case-insensitively', 'trijicon', '[WTS] TRIJICON RMR', '', true],
  ['a word must be a whole token', 'rm', '[WTS] Trijicon RMR', '', false],
  ['a word is found in the body', 'holosun', '[WTS] Red dot', 'It is a Holosun 507c', true],
  ['a missing word fails', 'eotech', '[WTS] Trijicon RMR', 'great glass', false],
  // letter/digit splitting
  ['p365 matches P365', 'p365', '[WTS] Sig P365', '', true],
  ['p365 matches P-365', 'p365', '[WTS] Sig P-365', '', true],
  ['p365 matches "p 365 xl"', 'p365', '[WTS] sig p 365 xl', '', true],
  ['p365 matches P365XL', 'p365', '[WTS] Sig P365XL', '', true],
  ['p365xl does not match a plain P365', 'p365xl', '[WTS] Sig P365 manual safety', '', false],
  ['p365 does not match 365 p (order)', 'p365', '[WTS] 365 p', '', false],
  ['ar-15 matches AR15', 'ar-15', '[WTS] AR15 lower', '', true],
  ['9mm matches "9 mm"', '9mm', '[WTS] 9 mm 124gr', '', true],
  ['9mm matches 9MM', '9mm', '[WTB] 9MM ammo', '', true],
  ['5.56 matches 556 (an alias of the dictionary)', '5.56', '[WTS] 556 brass', '', true],
  ['a split word must be adjacent', 'p365', '[WTS] P320 and 365 days', '', false],
  // AND
  ['several words all must occur, any order', 'rmr trijicon', '[WTS] Trijicon RMR', '', true],
  ['several words: one missing fails', 'trijicon rmr sro', '[WTS] Trijicon RMR', '', false],
  ['AND may be satisfied across title and body', 'glock gen5', '[WTS] Glock 19', 'This is a gen5 model', true],
  // phrases
  ['phrase matches adjacent in order', '"red dot"', '[WTS] Red Dot sight', '', true],
  ['phrase ignores punctuation between words', '"red dot"', '[WTS] red-dot', '', true],
  ['phrase fails out of order', '"red dot"', '[WTS] dot red', '', false],
  ['phrase fails when not adjacent', '"red dot"', '[WTS] red holo dot', '', false],
  ['phrase does not span title and body', '"rmr holosun"', '[WTS] Trijicon RMR', 'Holosun also', false],
  ['phrase with plurals folds', '"red dots"', '[WTS] Red dot', '', true],
  // prefixes
  ['prefix matches a token start', 'trij*', '[WTS] Trijicon RMR', '', true],
  ['prefix matches the full word', 'rmr*', '[WTS] RMR', '', true],
  ['prefix does not match mid-token', 'jicon*', '[WTS] Trijicon', '', false],
  ['split prefix: earlier tokens exact, last as prefix', 'p365*', '[WTS] Sig P365XL', '', true],
  ['split prefix: p36* matches p365', 'p36*', '[WTS] Sig P365', '', true],
  ['split prefix: the leading token must be exact', 'p365*', '[WTS] Sig XP365', '', false],
  ['prefix of a plural word matches', 'mags*', '[WTS] Magpul mags', '', true],
  ['prefix phrase: "trijicon rm*"', '"trijicon rm*"', '[WTS] Trijicon RMR', '', true],
  // a light mounted on the gun a holster fits is part of the fit
  ['a light the holster fits is not the light for sale', 'tlr 1', '[WTS] Kydex holster for Sig P320 w/ TLR-1 $55', '', false],
  ['a light the holster fits: a holster term still matches', 'holster', '[WTS] Kydex holster for Sig P320 w/ TLR-1 $55', '', true],
  ['a light sold with a gun is still an extra', 'tlr 1', '[WTS] Sig P320 w/ TLR-1 $550', '', true],
  // mags by another maker are not the gun maker's
  ['mags by another maker do not match the gun brand', 'glock <$100', '[WTS] KCI Glock 17 mags x2 $30', '', false],
  ['the gun maker’s own mags still match the brand', 'glock <$100', '[WTS] Glock 17 mags x2 $50', '', true],
  // a price bound on a gun maker alone that a gun could meet prices its guns, not the maker's parts
  ['a gun-priced bound on the maker skips its parts', 'glock <$500', '[Parts] Glock OEM trigger kit, Glock 19 slide parts kit - $49', '', false],
  ['… and its mags', 'glock <$500', '[WTS] Glock 17 mags x2 $50', '', false],
  ['… but finds its guns', 'glock <$500', '[Handgun] Glock 19 Gen 3 - $449.99, MSRP $599', '', true],
  ['… and the parts when the term names them', 'glock mag <$500', '[WTS] Glock 17 mags x2 $50', '', true],
  ['without a bound the maker’s parts are its products', 'glock', '[Parts] Glock OEM trigger kit - $49', '', true],
  ['another maker’s name on its part is its product', 'magpul <$500', '[WTS] Magpul PMAG 30rd mags x5 $60', '', true],
  // a watch sold with its papers is a watch, not its bracelet
  ['a watch with box and papers is not a bracelet for sale', 'bracelet', '[WTS] Tudor Pelagos 25600 Bracelet, box + papers $3900', '', false],
  ['… but it is the watch', 'tudor pelagos', '[WTS] Tudor Pelagos 25600 Bracelet, box + papers $3900', '', true],
  ['a bracelet alone is still a bracelet', 'bracelet', '[WTS] Tudor Pelagos bracelet 22mm $300', '', true],
  [
    'a watch described by its dial and movement is not its strap',
    'strap',
    '[WTS] Oris Divers 65, blue dial, automatic movement, tropic strap $1400',
    '',
    false,
  ],
  ['a band for a watch is the band, whatever the title describes', 'bracelet', '[WTS] Jubilee bracelet for Seiko SKX007 automatic, 22mm $90', '', true],
  // a price on the side the category does not read is not the item's
  [
    'a WTS term does not take the want side’s price',
    '507c <$150',
    '[H] Holosun 507C [W] Trijicon RMR',
    '507C on a plate. Looking for an RMR plus $100 your side.',
    false,
  ],
  ['a WTS term takes the have side’s price', '507c <$300', '[H] Holosun 507C $250 [W] Trijicon RMR', '', true],
  // a CPU inside a whole computer is a spec, not a CPU for sale (the words still count)
  ['a computer with its CPU is not a cpu', 'cpu', '[USA-CA] [H] Dell OptiPlex 7050 i5-7500 16GB/512GB [W] PayPal', '', false],
  ['a laptop with its CPU is not a cpu', 'cpu', '[USA-CA] [H] ThinkPad T480 i7-8650U [W] PayPal', '', false],
  ['the CPU’s own words still find the computer', 'i5 7500', '[USA-CA] [H] Dell OptiPlex 7050 i5-7500 16GB/512GB [W] PayPal', '', true],
  // a spec of another product (dictionary specOf): memory listed after "Server:", a DAC chip in a player, switches in a keyboard
  ['memory listed after a server and a colon is its spec', 'ram', '[FS] $400 | Dell R730 Server: 2x Xeon E5-2670, 64GB RAM | local', '', false],
  ['the spec’s own words still find the server', '"64gb ram"', '[FS] $400 | Dell R730 Server: 2x Xeon E5-2670, 64GB RAM | local', '', true],
  ['memory after the list ends ("|") is its own item', 'ram', '[FS] Dell R730 Server: 2x Xeon E5-2670 | 64GB DDR4 RAM kit $90', '', true],
  ['a DAC chip of a player is no DAC', 'dac', '[WTS] iBasso DX160 player ES9038 DAC chipset [W] PayPal', '', false],
  ['a DAC sold beside a player still is', 'dac', '[WTS] iBasso DX160 player, Topping E30 DAC [W] PayPal', '', true],
  ['switches in a keyboard are its spec', 'switches', '[US-CA] [H] Keychron Q1 w/ Gateron Browns [W] PayPal', '', false],
  ['a spec of one category may be an item of another', 'xeon', '[FS] $400 | Dell R730 Server: 2x Xeon E5-2670, 64GB RAM | local', '', true],
  ['…and still no item of the spec’s category', 'cpu', '[FS] $400 | Dell R730 Server: 2x Xeon E5-2670, 64GB RAM | local', '', false],
  // keys named after the board they fit are keycaps, not the board
  ['keys for a board are not the board', 'hhkb', '[EU-SE] [H] HHKB Limited Edition Esc/Ctrl keys [W] PayPal', '', false],
  ['the board itself', 'hhkb', '[UK] [H] HHKB Pro 2 [W] PayPal', '', true],
  // "[W] $110 Shipped Paypal": a want side that is only payment prices the have side
  ['a shipped price on a payment want side is the item’s', 'dac <$200', '[WTS] [USA-MI] [H] Topping E30 DAC [W] $110 Shipped Paypal', '', true],
  ['…and above the bound it fails', 'dac <$100', '[WTS] [USA-MI] [H] Topping E30 DAC [W] $110 Shipped Paypal', '', false],
  // a kit of a dictionary product is the product, not a part of what comes before it
  ['a memory kit is memory', 'ram', '[USA-CA] [H] 64GB DDR4 RAM kit [W] PayPal', '', true],
  ['a keycap base kit is its maker’s', 'gmk', '[CA-ON] [H] GMK Olivia Dark base kit [W] Paypal', '', true],
  ['a parts kit still marks the model', 'glock 19', '[WTS] Glock 19 slide parts kit $90', '', false],
  ['switches sold on their own', 'switches', '[US-CA] [H] 90x Gateron Browns, Keychron Q1 [W] PayPal', '', true],
  ['a CPU sold with RAM is a cpu', 'cpu', '[USA-CA] [H] i5-7500, 16GB DDR4 [W] PayPal', '', true],
  // market round 3: words only in the body's prose name no item, so a bound does not take an item's price
  [
    'a word only in body prose does not take an item’s price',
    'monitor <$250',
    '[USA-CA] [H] RTX 3060, Dell S2721DGF [W] Local',
    'RTX 3060 - $245\nDell S2721DGF - $300\nAlso have two older monitors I might sell later.',
    false,
  ],
  ['…the item’s own words still do', 'gpu <$250', '[USA-CA] [H] RTX 3060, Dell S2721DGF [W] Local', 'RTX 3060 - $245\nDell S2721DGF - $300', true],
  ['…and a title tag names the item', 'psu <$100', '[PSU] EVGA 500 GD, 80+ GOLD 500W, Power Supply 100-GD-0500-V1 -$69.99', '', true],
  // a second want sentence on a body line is a want too
  [
    'a further want sentence of a line is on the want side',
    'cpu',
    '[USA-NY] [H] LG 27GL850 monitor [W] Monitors',
    'Down to trade for other monitors. Also looking for parts, based around an i5 6600K.',
    false,
  ],
  // "Price: $275" under a numbered item (after its description) is that item's price
  [
    'a "Price:" line is the price of the numbered item above it',
    'gpu <$300',
    '[USA-NY] [H] GTX 1080 Ti, GTX 1060 [W] PayPal',
    '1. EVGA GTX 1080 Ti FTW3\nLike new, box included.\nPrice: $650\n2. Gigabyte GTX 1060 6G Video Card\nSix months old.\nPrice: $275',
    true,
  ],
  [
    '…not of the other one',
    '"1080 ti" <$300',
    '[USA-NY] [H] GTX 1080 Ti, GTX 1060 [W] PayPal',
    '1. EVGA GTX 1080 Ti FTW3\nLike new, box included.\nPrice: $650\n2. Gigabyte GTX 1060 6G Video Card\nSix months old.\nPrice: $275',
    false,
  ],
  // "Asking for 285 shipped, local pickup for a discount" is the seller's price, not an item
  [
    'an "Asking …" line is the post’s price',
    'gpu <$300',
    '[USA-CA][H] Sapphire R9 Fury Nitro [W] Verified PayPal',
    'Asking for 285 shipped, local pickup if you want a discount',
    true,
  ],
  [
    '…and a body price prices the have side of a trade',
    'keyboard <$50',
    '[USA-MO] [H] HyperX Alloy [W] PayPal or a TKL keyboard',
    'Asking for $35 + $15 shipping.',
    true,
  ],
  // Core model numbers written without separators
  ['"i52500S" is a CPU', 'cpu', '[USA-CA][H]i52500S, i73770 [W]Paypal', '', true],
  ['…"i712700K" too', 'cpu', '[USA-CA][H] i712700K [W] Paypal', '', true],
  // keyboards: either-or is not a spec, a clone is not the original, a typo of a maker, kits of a set
  ['"keyboard/switches" is either one, not a keyboard with its switches', 'switches', '[EU-UK] [H] spare keyboard/switches [W] PayPal', '', true],
  ['…"keyboard or switches" likewise', 'switches', '[EU-UK] [H] a keyboard or switches [W] PayPal', '', true],
  ['a Topre clone is no Topre', 'topre', '[US-MA][H] Noppoo Choc Topre Clone [W] Paypal', '', false],
  ['…unless the term asks for the clone', 'topre clone', '[US-MA][H] Noppoo Choc Topre Clone [W] Paypal', '', true],
  ['"Gatereon" is Gateron', 'gateron', '[US-CA] [H] 70x Gatereon Yellows [W] PayPal', '', true],
  ['a set’s kit is keycaps', 'keycaps', '[US-CA] [H] Olivia Novelties Kit [W] PayPal', '', true],
  // every title item a replica: the body's lines are the same replicas
  [
    'a post whose title items are all replicas is a replica post',
    'glock 17 <$200',
    '[WTS] Airsoft Glock 17 (KWA), airsoft Holosun',
    'KWA G17 $100, Holosun $30.',
    false,
  ],
  ['one real item keeps the post real', 'holosun 407c', '[WTS] Airsoft Glock 17 (KWA), Holosun 407C', 'G17 $100, 407C $200.', true],
  // exclusions
  ['exclusion blocks a post containing the word', 'rmr -airsoft', '[WTS] RMR airsoft replica', '', false],
  ['exclusion allows a post without it', 'rmr -airsoft', '[WTS] RMR real deal', '', true],
  ['exclusion looks in the body too', 'rmr -airsoft', '[WTS] RMR', 'fits airsoft too', false],
  ['excluded phrase blocks only the phrase', 'rmr -"for parts"', '[WTS] RMR for sale, parts included', '', true],
  ['excluded phrase blocks the phrase', 'rmr -"for parts"', '[WTS] RMR for parts', '', false],
  ['excluded prefix blocks', 'glock -airs*', '[WTS] Glock airsoft', '', false],
  // an excluded category name excludes the category's products too (issue 25: `seiko -quartz`)
  ['an excluded category excludes its members', 'seiko -quartz', '[WTS] Seiko 7T92-0DW0 chronograph', '', false],
  ['an excluded category excludes its word', 'seiko -quartz', '[WTS] Seiko quartz diver', '', false],
  ['an excluded category keeps the other products', 'seiko -quartz', '[WTS] Seiko 6139 chronograph', '', true],
  ['an excluded category name written as a phrase', 'kz -"in ear monitor"', '[WTS] KZ ZS10 Pro', '', false],
  ['an excluded category reads the item, not the listing', 'seiko -quartz', '[WTS] Seiko 6139 $300, Seiko 7T92 $150', '', true],
  // OR
  ['OR: first alternative', 'rmr trijicon | holosun', '[WTS] Trijicon RMR', '', true],
  ['OR: second alternative', 'rmr trijicon | holosun', '[WTS] Holosun 507c', '', true],
  ['OR has lowest precedence: (a AND b) OR c', 'rmr trijicon | holosun', '[WTS] RMR only', '', false],
  ['exclusion belongs to its alternative only', 'rmr -airsoft | airsoft holosun', '[WTS] Holosun airsoft', '', true],
  // plurals
  ['plural term matches singular post', 'mags', '[WTS] Glock mag', '', true],
  ['singular term matches plural post', 'optic', '[WTS] Optics lot', '', true],
  ['glass does not fold to glas', 'glas', '[WTS] Leupold glass', '', false],
  // Unicode
  ['accented post matches plain term', 'trijicon', '[WTS] Trijicón RMR', '', true],
  ['accented term matches plain post', 'trijicón', '[WTS] Trijicon RMR', '', true],
  ['full-width digits match', 'p365', '[WTS] Ｐ３６５', '', true],
  ['emoji in the title are ignored', 'glock 19', '🔥🔥 Glock🔥19 🔥', '', true],
  // price bounds
  ['price below the bound matches', 'rmr <$500', '[WTS] RMR - $450 shipped', '', true],
  ['price above the bound fails', 'rmr <$500', '[WTS] RMR - $550 shipped', '', false],
  ['<= includes the amount', 'rmr <=$500', '[WTS] RMR $500', '', true],
  ['> bound', 'rmr >$100', '[WTS] RMR $450', '', true],
  ['>= bound fails below', 'rmr >=$500', '[WTS] RMR $450', '', false],
  ['a post with no price fails a price bound', 'rmr <$500', '[WTS] RMR', 'great condition', false],
  ['shipping is not the item price', 'rmr <$100', '[WTS] RMR $450 + $20 ship', '', false],
  ['range: one amount must be in range', 'rmr >$100 <$500', '[WTS] RMR $50, $600', '', false],
  ['range: amount inside', 'rmr >$100 <$500', '[WTS] RMR $300', '', true],
  ['k suffix in title', 'aimpoint >$1,000', '[WTS] Aimpoint T2 $1.2k', '', true],
  // long inputs
  ['a word deep in a 10k-character body is found', 'surefire', '[WTS] lights', 'blah '.repeat(2000) + 'surefire', true],
]

describe('matchesPost', () => {
  for (const [name, term, title, body, want] of cases) {
    test(`${name} — ${term} vs ${JSON.stringify(title)}`, () => expect(matches(term, title, body)).toBe(want))
  }
})

test('distinctTokens gives the token set of preparePost (title and body, accents and emoji included)', async () => {
  const { distinctTokens } = await import('../../../src/matching/compile')
  const { makePost, rng } = await import('../../../bench/vocabulary')
  const r = rng(5)
  const posts = [{ title: '[WTS] Trijicón RMR 🔥 $450', content: 'Señor’s P365XL, mags and mags' }, { title: 'Only a title' }, { title: '', content: null }]
  for (let i = 0; i < 200; i++) posts.push(makePost(r))
  for (const p of posts) expect(new Set(distinctTokens(p))).toEqual(new Set(preparePost(p).distinct))
})
