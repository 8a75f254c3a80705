// The parse cost of one 100-entry Reddit Atom page (what a poll without a key reads), against a baseline
// measured in the same run: JSON.parse of the same 100 posts as Reddit's JSON listing would carry them.
// The ratio is the target (Atom parsing within 100× of native JSON.parse; 17–59× measured on a loaded 2-core machine, 36–46 ms a page, under 1 % of a 7.5 s poll), never a
// timed assertion in a test. Feeds come from the fake Reddit's own renderer (tests/fakes/reddit.ts).
import { parseRedditAtom } from '../src/forums/reddit-atom'
import { startFakeReddit } from '../tests/fakes/reddit'

const fake = await startFakeReddit({ loggedOutJson: 'open' })
const body = 'Selling a lightly used optic. Glass is clean, no scratches.\n\nComes with the box, caps & mount. $400 shipped, PayPal F&F.\n\n'.repeat(4)
for (let i = 0; i < 100; i++) fake.publish({ title: `[WTS] Trijicon RMR Type 2 RM06 #${i} - $400`, selftext: body, author: `seller_${i}` })
const atom = await (await fetch(`${fake.url}/r/GunAccessoriesForSale/new/.rss?limit=100`)).text()
const json = await (await fetch(`${fake.url}/r/GunAccessoriesForSale/new.json?limit=100&raw_json=1`)).text()
await fake.stop()

function time(fn: () => void, rounds: number): number {
  for (let i = 0; i < 5; i++) fn()
  const t0 = performance.now()
  for (let i = 0; i < rounds; i++) fn()
  return (performance.now() - t0) / rounds
}
const now = Date.now()
const atomMs = time(() => parseRedditAtom(atom, now), 50)
const jsonMs = time(() => JSON.parse(json), 200)
const posts = parseRedditAtom(atom, now).posts.length
const ratio = atomMs / jsonMs
console.log(`Atom page: ${posts} entries, ${(atom.length / 1024).toFixed(0)} KB → ${atomMs.toFixed(2)} ms a page`)
console.log(`baseline JSON.parse of the same listing (${(json.length / 1024).toFixed(0)} KB): ${jsonMs.toFixed(3)} ms`)
console.log(`ratio ${ratio.toFixed(1)}× (target ≤ 100×)`)
await Bun.write(new URL('results/atom-parse.json', import.meta.url), JSON.stringify({ posts, atomMs, jsonMs, ratio }, null, 2))
if (posts !== 100 || ratio > 100) process.exitCode = 1
