// The work a CLI process hands to a running server on the same DATA_DIR (src/realtime/relay.ts,
// POST /api/internal/run): `dibs scan` and `dibs match` run here, on the server's source (one
// Reddit rate budget) and its term index, and `dibs sources test` on its feed runner (one politeness
// interval per host); the CLI prints the result.
import type { RelayTasks } from '../realtime/relay'
import { runBatchMatch } from '../matches/batch'
import type { Preview, SourceRunner } from './feeds'
import { runScan, type ScanDeps, type ScanOutcome } from './scan'

/** A delegated scan waits this long at most for the server's rate budget to allow a request. */
const MAX_BUDGET_WAIT_MS = 30_000

export function scannerTasks(deps: ScanDeps & { feeds: SourceRunner }): RelayTasks {
  return {
    async scan(): Promise<ScanOutcome> {
      // The server's own loop spends the budget too: wait for the next allowed request rather than
      // answer 'waiting' to an operator who asked for a scan now.
      const b = deps.source.budget
      if (b) {
        const now = deps.now().getTime()
        const wait = b.nextAllowedAt(now) - now
        if (wait > 0 && wait <= MAX_BUDGET_WAIT_MS) await Bun.sleep(wait)
      }
      return runScan(deps, deps.source, { manual: true })
    },
    async match(params) {
      const sinceMs = typeof params.sinceMs === 'number' && params.sinceMs > 0 ? params.sinceMs : undefined
      return runBatchMatch(deps, { sinceMs })
    },
    /** `dibs sources test <id>`: one fetch of a saved source, nothing stored */
    async preview(params): Promise<Preview> {
      return deps.feeds.testSaved(Number(params.id))
    },
  }
}
