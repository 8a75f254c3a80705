// Rate limits of the account routes (DESIGN: login, signup, resend, forgot). Login counts failures
// per IP and per account — an unknown email counts like a known one, so the limit itself reveals
// nothing. Windows are fixed; Retry-After tells the client how long.
import type { Deps } from '../deps'
import { AppError } from '../lib/errors'
import { RateLimiter } from '../lib/rate-limit'

const MIN = 60_000

export function authLimiters(deps: Pick<Deps, 'now'>) {
  const now = () => deps.now().getTime()
  return {
    loginIp: new RateLimiter(50, 15 * MIN, now),
    loginAccount: new RateLimiter(10, 15 * MIN, now),
    signupIp: new RateLimiter(20, 60 * MIN, now),
    resendIp: new RateLimiter(10, 15 * MIN, now),
    resendEmail: new RateLimiter(3, 15 * MIN, now),
    forgotIp: new RateLimiter(10, 15 * MIN, now),
    forgotEmail: new RateLimiter(3, 60 * MIN, now),
    passwordUser: new RateLimiter(10, 15 * MIN, now),
  }
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
