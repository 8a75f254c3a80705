// Rate limits of the account routes (DESIGN: login, signup, resend, forgot). Login counts failures
// per IP and per account — an unknown email counts like a known one, so the limit itself reveals
// nothing. Windows are fixed; Retry-After tells the client how long.
import type { Deps } from '../deps'
import { AppError } from '../lib/errors'
import { ConcurrencyLimit, RateLimiter } from '../lib/rate-limit'

const MIN = 60_000

export function authLimiters(deps: Pick<Deps, 'now'>) {
  const now = () => deps.now().getTime()
  return {
    signupIp: new RateLimiter(20, 60 * MIN, now),
    resendIp: new RateLimiter(10, 15 * MIN, now),
    resendEmail: new RateLimiter(3, 15 * MIN, now),
    forgotIp: new RateLimiter(10, 15 * MIN, now),
    forgotEmail: new RateLimiter(3, 60 * MIN, now),
    passwordUser: new RateLimiter(10, 15 * MIN, now),
    /** emails a stranger can cause to one recipient (sign-up's and the re-send's), as forgotEmail caps resets */
    strangerMail: new RateLimiter(3, 60 * MIN, now),
  }
}

/**
 * Whether one more email a stranger caused may go to this recipient (it counts when it may). Over the
 * cap the mail is skipped, never the answer: the route says the same either way (no enumeration).
 */
export type MailGate = (recipient: string) => boolean

export function strangerMailGate(limits: ReturnType<typeof authLimiters>): MailGate {
  return (recipient) => limits.strangerMail.hit(recipient) === 0
}

export function rateLimited(seconds: number, what = 'attempts'): AppError {
  const minutes = Math.max(1, Math.ceil(seconds / 60))
  return new AppError(429, 'RATE_LIMITED', `Too many ${what}. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`, {
    title: 'Too many attempts',
    retryAfter: seconds,
  })
}

/** Counts a hit on each key; throws when any is over its limit. */
export function limit(pairs: [RateLimiter, string][], what?: string) {
  let wait = 0
  for (const [limiter, key] of pairs) wait = Math.max(wait, limiter.hit(key))
  if (wait > 0) throw rateLimited(wait, what)
}

/** Password verifications running at once per account and per address; more get 429 at once. */
const CONCURRENT_PER_ACCOUNT = 2
const CONCURRENT_PER_IP = 8

export type LoginAttempt = {
  /** The credentials were right: the attempt stops counting against the address and the account (or device). */
  succeeded(): void
  /** The password was right but a two-factor code is still owed: the attempt counts neither way. */
  refund(): void
  /** Always call when the attempt is over (frees the concurrency slots). */
  done(): void
}

/**
 * Sign-in limits (OWASP "Blocking Brute Force Attacks", device cookies):
 *   - per address: 50 failures in 15 min;
 *   - per account, from browsers that never signed in to it: 10 failures in 15 min;
 *   - a browser holding the account's device cookie is counted on its own (10 per device), so
 *     failures from elsewhere never lock the owner out.
 * An attempt is counted *before* the password is checked (a burst cannot slip through between the
 * check and the count) and taken back when it succeeds; at most 2 checks per account and 8 per
 * address run at once.
 */
export function loginGuard(deps: Pick<Deps, 'now'>) {
  const now = () => deps.now().getTime()
  const ip = new RateLimiter(50, 15 * MIN, now)
  const account = new RateLimiter(10, 15 * MIN, now)
  const device = new RateLimiter(10, 15 * MIN, now)
  const busyAccount = new ConcurrencyLimit(CONCURRENT_PER_ACCOUNT)
  const busyIp = new ConcurrencyLimit(CONCURRENT_PER_IP)

  return {
    /** Reserves one attempt or throws 429. */
    begin(who: { ip: string; email: string; deviceId: string | null }): LoginAttempt {
      const acctKey = `acct:${who.email}`
      const [counter, key] = who.deviceId !== null ? [device, who.deviceId] : [account, acctKey]
      const wait = Math.max(ip.check(who.ip), counter.check(key))
      if (wait > 0) throw rateLimited(wait, 'sign-in attempts')
      if (!busyAccount.enter(acctKey)) throw rateLimited(1, 'sign-in attempts')
      if (!busyIp.enter(who.ip)) {
        busyAccount.leave(acctKey)
        throw rateLimited(1, 'sign-in attempts')
      }
      ip.hit(who.ip)
      counter.hit(key)
      let finished = false
      return {
        succeeded() {
          // Only failures count, so many people behind one address can still sign in.
          ip.release(who.ip)
          counter.reset(key)
        },
        refund() {
          ip.release(who.ip)
          counter.release(key)
        },
        done() {
          if (finished) return
          finished = true
          busyAccount.leave(acctKey)
          busyIp.leave(who.ip)
        },
      }
    },
  }
}
