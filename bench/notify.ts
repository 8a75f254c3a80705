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
