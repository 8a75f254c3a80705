// Web push throughput against the local HTTPS push service (tests/fakes/push-service.ts, payload
// decryption off so the receiver is not the bottleneck): messages per second when the VAPID
// Authorization header is re-signed for every message versus cached per push-service origin
// (src/outbox/channels/webpush.ts), plus web-push's own sendNotification as a baseline.
// `bun bench/notify.ts [messages]` → table + bench/results/notify.json.
import https from 'node:https'
import { mkdirSync, writeFileSync } from 'node:fs'
import webpush from 'web-push'
import { sendPush, VapidHeaderCache } from '../src/outbox/channels/webpush'
import { startFakePushService } from '../tests/fakes/push-service'

const MESSAGES = Number(process.argv[2] ?? 2000)
const CONCURRENCY = 32
const SUBSCRIPTIONS = 50

const push = await startFakePushService({ decrypt: false })
const transport = { tls: { ca: push.cert } }
const vapid = { subject: 'mailto:bench@example.com', ...webpush.generateVAPIDKeys() }
const subs = Array.from({ length: SUBSCRIPTIONS }, () => push.subscribe())
const payload = JSON.stringify({
  title: 'New GAFS WTS match',
  body: '[WTS] Trijicon RMR Type 2 - $350\nMatched: trijicon rmr',
  url: 'https://dibs.example.com/dashboard/gafs/wts?match=1',
  tag: 'match-1',
})

async function run(name: string, send: (i: number) => Promise<unknown>) {
  push.received.length = 0
  let next = 0
  const t0 = performance.now()
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < MESSAGES) await send(next++)
    }),
  )
  const ms = performance.now() - t0
  if (push.received.length !== MESSAGES) throw new Error(`${name}: ${push.received.length}/${MESSAGES} delivered (${push.rejected.slice(0, 3).join('; ')})`)
  return { name, messages: MESSAGES, ms: Math.round(ms), perSecond: Math.round((MESSAGES / ms) * 1000) }
}

// Warm up TLS connections and the JIT.
await run('warmup', (i) => sendPush(new VapidHeaderCache(vapid), subs[i % SUBSCRIPTIONS]!, payload, { transport }))

const resign = new VapidHeaderCache(vapid, () => new Date(), false)
const cached = new VapidHeaderCache(vapid)
const agent = new https.Agent({ ca: push.cert, keepAlive: true, maxSockets: CONCURRENCY })
const rows = [
  await run('web-push sendNotification (signs each message)', (i) =>
    webpush.sendNotification(subs[i % SUBSCRIPTIONS]!, payload, { vapidDetails: vapid, agent, TTL: 86400 }),
  ),
  await run('Dibs sendPush, VAPID re-signed per message', (i) => sendPush(resign, subs[i % SUBSCRIPTIONS]!, payload, { transport })),
  await run('Dibs sendPush, VAPID header reused per origin', (i) => sendPush(cached, subs[i % SUBSCRIPTIONS]!, payload, { transport })),
]
const signed = { resign: resign.signed, cached: cached.signed }

// Signing alone, to show where the difference comes from.
const t0 = performance.now()
for (let i = 0; i < 1000; i++) webpush.getVapidHeaders(push.origin, vapid.subject, vapid.publicKey, vapid.privateKey, 'aes128gcm')
const signPerSecond = Math.round(1000 / ((performance.now() - t0) / 1000))

console.log(`web push: ${MESSAGES} messages, ${SUBSCRIPTIONS} subscriptions, concurrency ${CONCURRENCY}, local HTTPS push service`)
console.table(rows.map((r) => ({ variant: r.name, 'msgs/s': r.perSecond, ms: r.ms })))
console.log(`JWT signatures: re-signed ${signed.resign}, reused ${signed.cached}; getVapidHeaders alone: ${signPerSecond}/s`)
mkdirSync(new URL('results', import.meta.url).pathname, { recursive: true })
writeFileSync(
  new URL('results/notify.json', import.meta.url).pathname,
  JSON.stringify({ date: new Date().toISOString(), bun: Bun.version, messages: MESSAGES, concurrency: CONCURRENCY, rows, signed, signPerSecond }, null, 2) +
    '\n',
)
await push.stop()
agent.destroy()

// ── Fan-out across the channel registry ─────────────────────────────────────────────────────────
// One match to 1,000 users, each with one external channel, the kinds round-robin over every
// provider of src/outbox/channels/registry.ts, each served by its fake (tests/fakes/) answering after
// FAN_LATENCY_MS like a real API. Naive: one delivery after another (deliver() per channel). Dibs:
// the rows queued and the outbox worker's concurrent runs. Target: Dibs ≥ 3× the naive rate.
import { notifyEndpoints, users } from '../src/db/schema'
import { outbox } from '../src/db/schema'
import { asAsync } from '../src/db/async-sqlite'
import { enqueue } from '../src/outbox/queue'
import { deliver, type Provider } from '../src/outbox/channels/provider'
import { PROVIDERS } from '../src/outbox/channels/registry'
import { externalAlert } from '../src/notify/external'
import { channelStore } from '../src/notify/channel-store'
import { eq } from 'drizzle-orm'
import { makeDeps } from '../tests/helpers'
import { setFakeLatency } from '../tests/fakes/http-recorder'
import { fakeTelegram } from '../tests/fakes/telegram'
import { fakePushover } from '../tests/fakes/pushover'
import { fakeGotify } from '../tests/fakes/gotify'
import { fakeMatrix } from '../tests/fakes/matrix'
import { fakeSlack } from '../tests/fakes/slack'
import { fakeApprise } from '../tests/fakes/apprise'
import { fakeNtfy } from '../tests/fakes/ntfy'
import { fakeDiscord } from '../tests/fakes/discord'
import { fakeWebhookReceiver } from '../tests/fakes/webhook-receiver'

const FAN_USERS = Number(process.env.FAN_USERS ?? 1000)
const FAN_LATENCY_MS = Number(process.env.FAN_LATENCY_MS ?? 20)
const BOT = '1:bench'
const PO_APP = 'a'.repeat(30)
const PO_USER = 'u'.repeat(30)
const f = {
  tg: fakeTelegram({ token: BOT }),
  po: fakePushover({ appToken: PO_APP, users: [PO_USER] }),
  go: fakeGotify({ appToken: 'gtok' }),
  mx: fakeMatrix({ token: 'mtok', roomId: '!r:bench' }),
  sl: fakeSlack(),
  ap: fakeApprise(),
  nt: fakeNtfy(),
  dc: fakeDiscord(),
  wh: fakeWebhookReceiver(),
}
const fanDeps = makeDeps({
  CHANNELS_ALLOW_PRIVATE: '1',
  TELEGRAM_BOT_TOKEN: BOT,
  TELEGRAM_API_URL: f.tg.apiUrl,
  PUSHOVER_APP_TOKEN: PO_APP,
  PUSHOVER_API_URL: f.po.apiUrl,
  APPRISE_URL: f.ap.url,
})
/** What each kind stores (as its validation would), pointing at its fake. */
const stored: Record<string, (i: number) => { url: string; secret: string | null; options: Record<string, unknown> }> = {
  webhook: () => ({ url: f.wh.hookUrl, secret: 'whsec_bench', options: {} }),
  ntfy: (i) => ({ url: `${f.nt.url}/topic${i}`, secret: null, options: { priority: 3 } }),
  discord: () => ({ url: f.dc.hookUrl, secret: null, options: {} }),
  telegram: (i) => (f.tg.userSends(10_000 + i, '/start'), { url: 'chat', secret: null, options: { chatId: 10_000 + i } }),
  pushover: () => ({ url: 'https://pushover.net', secret: PO_USER, options: {} }),
  gotify: () => ({ url: f.go.url, secret: 'gtok', options: {} }),
  matrix: () => ({ url: f.mx.url, secret: 'mtok', options: { roomId: '!r:bench' } }),
  slack: () => ({ url: f.sl.hookUrl, secret: null, options: {} }),
  apprise: () => ({ url: 'tgram://…', secret: 'tgram://1:x/2', options: {} }),
}
const eps = Array.from({ length: FAN_USERS }, (_, i) => {
  const p = PROVIDERS[i % PROVIDERS.length]! as Provider
  const u = fanDeps.db
    .insert(users)
    .values({ email: `fan${i}@example.com`, name: 'Fan', emailConfirmedAt: new Date() })
    .returning()
    .get()
  return {
    p,
    ep: fanDeps.db
      .insert(notifyEndpoints)
      .values({ userId: u.id, kind: p.kind, name: '', ...stored[p.kind]!(i), createdAt: new Date() })
      .returning()
      .get(),
  }
})
const at = new Date().toISOString()
const sampleMatch = (id: number) =>
  externalAlert(fanDeps.config, {
    id,
    postId: null,
    title: '[WTS] Trijicon RMR Type 2 - $450',
    url: 'https://www.reddit.com/r/GunAccessoriesForSale/comments/abc/',
    linkUrl: null,
    author: 'seller',
    createdAt: at,
    postCreatedAt: at,
    state: 'open',
    matchedTerms: ['rmr'],
    isNew: true,
    category: 'wts',
    source: 'live',
    archivedAt: null,
  })
setFakeLatency(FAN_LATENCY_MS)
const received = () => Object.values(f).reduce((n, x) => n + x.received.length, 0)

// naive: one after another
const n0 = received()
let t = performance.now()
for (const [i, { p, ep }] of eps.entries()) await deliver(fanDeps, channelStore, p, ep, sampleMatch(1), `naive:${i}`)
const naiveMs = performance.now() - t
const naiveSent = received() - n0

// Dibs: queued rows (as the dispatcher writes them) and the outbox worker
const n1 = received()
t = performance.now()
await asAsync(fanDeps.db).transaction(async (tx) => {
  for (const { p, ep } of eps)
    await enqueue(
      { ...fanDeps, db: tx },
      {
        channel: p.kind,
        kind: 'match',
        userId: ep.userId,
        dedupeKey: `match:2:${p.kind}:${ep.id}`,
        payload: { endpointId: ep.id, alert: sampleMatch(2) },
      },
    )
})
await fanDeps.outbox.tick()
const fanMs = performance.now() - t
const fanSent = received() - n1
const notSent = fanDeps.db.select().from(outbox).where(eq(outbox.status, 'sent')).all().length
if (naiveSent !== FAN_USERS || fanSent !== FAN_USERS || notSent !== FAN_USERS)
  throw new Error(`fan-out: naive ${naiveSent}, Dibs ${fanSent} requests, ${notSent} rows sent of ${FAN_USERS}`)
const ratio = naiveMs / fanMs
console.log(`\nfan-out: one match to ${FAN_USERS} users over ${PROVIDERS.length} channel kinds, fakes answering in ${FAN_LATENCY_MS} ms`)
console.table([
  { variant: 'naive sequential send', ms: Math.round(naiveMs), 'msgs/s': Math.round((FAN_USERS / naiveMs) * 1000) },
  { variant: 'Dibs: queued rows + outbox worker', ms: Math.round(fanMs), 'msgs/s': Math.round((FAN_USERS / fanMs) * 1000) },
])
console.log(`Dibs / naive: ${ratio.toFixed(1)}× (target ≥ 3×)`)
writeFileSync(
  new URL('results/notify-fanout.json', import.meta.url).pathname,
  JSON.stringify({ date: new Date().toISOString(), users: FAN_USERS, kinds: PROVIDERS.length, latencyMs: FAN_LATENCY_MS, naiveMs, fanMs, ratio }, null, 2) +
    '\n',
)
setFakeLatency(0)
fanDeps.close()
for (const x of Object.values(f)) await x.stop()
if (ratio < 3) {
  console.error('fan-out below 3× the naive send')
  process.exitCode = 1
}
