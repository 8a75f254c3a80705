// One node for bench/cluster.ts: holds leadership on the database of argv[2] with the interval argv[3] (ms)
// and prints `leader <epoch ms>` / `follower <epoch ms>` on each change.
import { startLeadership } from '../src/cluster/leader'
import { LOCKS } from '../src/cluster/locks'

const [url, interval] = [process.argv[2]!, Number(process.argv[3])]
const l = startLeadership({ url, key: LOCKS.scanner, intervalMs: interval })
l.onChange((leader) => console.log(`${leader ? 'leader' : 'follower'} ${Date.now()}`))
process.on('SIGTERM', () => void l.stop().then(() => process.exit(0)))
