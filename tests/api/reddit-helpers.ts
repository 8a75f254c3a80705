// Shared by the Reddit client suites (reddit-client, reddit-atom): a simulated clock for the client and
// the fake, and the RedditError a call ends in.
import { expect } from 'bun:test'
import { RedditError } from '../../src/forums/reddit-client'

/** A simulated clock shared by the client and the fake, so windows and expiries can be skipped. */
export function simClock(start = 1_763_640_000_000) {
  const c = { t: start, now: () => c.t, advance: (ms: number) => void (c.t += ms) }
  return c
}

/** The RedditError `p` rejects with (fails the test when it resolves or throws something else). */
export async function rejection(p: Promise<unknown>): Promise<RedditError> {
  try {
    await p
  } catch (e) {
    expect(e).toBeInstanceOf(RedditError)
    return e as RedditError
  }
  throw new Error('expected the call to fail')
}
