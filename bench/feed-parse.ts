// The parse cost of one 100-item RSS 2.0 feed in XenForo's shape (what a forum feed source reads each
// poll; rendered by tests/fakes/forum-feeds.ts), against a baseline measured in the same run: JSON.parse
// of the same 100 posts as a JSON Feed. The ratio is the target (≤ 100×, like the Reddit Atom page in
// atom-parse.ts), never a timed assertion in a test.
import { parseFeed } from '../src/sources/feed-parse'
import { renderJsonFeed, renderXenForo, type FeedPost } from '../tests/fakes/forum-feeds'

const BASE = 'https://forum.example.com'
const html =
  'Selling a lightly used optic. Glass is clean, no scratches.<br />\n<br />\nComes with the box, caps &amp; mount. $400 shipped, PayPal F&amp;F.<br />\n'.repeat(
    4,
  )
const now = Date.now()
const posts: FeedPost[] = Array.from({ length: 100 }, (_, i) => ({
  id: 5000 + i,
  title: `WTS: Trijicon RMR Type 2 RM06 #${i} - $400`,
  author: `seller_${i}`,
  html,
  createdAt: now - i * 60_000,
  category: 'Optics',
}))
const rss = renderXenForo(BASE, posts)
const json = renderJsonFeed(BASE, posts)

function time(fn: () => void, rounds: number): number {
  for (let i = 0; i < 5; i++) fn()
  const t0 = performance.now()
  for (let i = 0; i < rounds; i++) fn()
  return (performance.now() - t0) / rounds
}
const opts = { url: `${BASE}/forums/optics.12/index.rss`, now }
const rssMs = time(() => parseFeed(rss, opts), 50)
const jsonMs = time(() => JSON.parse(json), 200)
const items = parseFeed(rss, opts).items.length
const ratio = rssMs / jsonMs
console.log(`RSS 2.0 feed: ${items} items, ${(rss.length / 1024).toFixed(0)} KB → ${rssMs.toFixed(2)} ms a feed`)
console.log(`baseline JSON.parse of the same posts as a JSON Feed (${(json.length / 1024).toFixed(0)} KB): ${jsonMs.toFixed(3)} ms`)
console.log(`ratio ${ratio.toFixed(1)}× (target ≤ 100×)`)
await Bun.write(new URL('results/feed-parse.json', import.meta.url), JSON.stringify({ items, rssMs, jsonMs, ratio }, null, 2))
if (items !== 100 || ratio > 100) process.exitCode = 1
