// Takeover time of the scanner's leadership (issue 29 §3, src/cluster/leader.ts) on a real PostgreSQL
// server from Debian's packages (tests/pg.ts): three node processes on one database; the holder is
// killed with SIGKILL; how long until another node holds the lock. Target: within two intervals (the
// holder's death frees the lock at once; a follower tries once per interval). Printed for an interval of
// 1 s and 5 s, 5 kills each, as a ratio to the interval measured in the same run.
import { startPostgres } from '../tests/pg'

const KILLS = 5
const server = await startPostgres()
let failed = false
try {
  for (const interval of [1000, 5000]) {
    const url = await server.newDatabase()
    type Node = { proc: ReturnType<typeof Bun.spawn>; leaderAt: number | null }
    const nodes: Node[] = []
    const start = () => {
      const node: Node = {
        proc: Bun.spawn(['bun', new URL('cluster-node.ts', import.meta.url).pathname, url, String(interval)], { stdout: 'pipe' }),
        leaderAt: null,
      }
      void (async () => {
        const reader = node.proc.stdout as ReadableStream<Uint8Array>
        let buf = ''
        for await (const chunk of reader) {
          buf += new TextDecoder().decode(chunk)
          for (let i = buf.indexOf('\n'); i >= 0; i = buf.indexOf('\n')) {
            const [state, at] = buf.slice(0, i).split(' ')
            buf = buf.slice(i + 1)
            node.leaderAt = state === 'leader' ? Number(at) : null
          }
        }
      })()
      nodes.push(node)
    }
    for (let i = 0; i < 3; i++) start()
    const leaderOf = () => nodes.find((n) => n.leaderAt !== null && n.proc.exitCode === null && !n.proc.killed)
    const waitLeader = async () => {
      for (let t = 0; t < 40 * interval; t += 10) {
        const l = leaderOf()
        if (l) return l
        await Bun.sleep(10)
      }
      throw new Error('no leader')
    }
    const times: number[] = []
    for (let k = 0; k < KILLS; k++) {
      const holder = await waitLeader()
      // let a round pass so the followers are mid-interval at a random phase
      await Bun.sleep(Math.random() * interval)
      const killedAt = Date.now()
      holder.proc.kill('SIGKILL')
      await holder.proc.exited
      const next = await waitLeader()
      times.push(next.leaderAt! - killedAt)
      start() // a replacement node, so three stay
    }
    for (const n of nodes) if (n.proc.exitCode === null) n.proc.kill('SIGTERM')
    await Promise.all(nodes.map((n) => n.proc.exited))
    const worst = Math.max(...times)
    const ratio = worst / interval
    const ok = ratio <= 2
    if (!ok) failed = true
    console.log(
      `interval ${interval} ms: takeover after SIGKILL ${times.map((t) => `${t} ms`).join(', ')}; worst ${worst} ms = ${ratio.toFixed(2)} × interval (target ≤ 2) ${ok ? 'ok' : 'MISSED'}`,
    )
  }
} finally {
  await server.stop()
}
if (failed) process.exit(1)
