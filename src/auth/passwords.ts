// Password hashing with Bun.password (argon2id). Unknown accounts still pay for one verify
// against a dummy hash, so response time does not reveal whether an email has an account.
import { COMMON_PASSWORD_TEXT, isCommonPassword } from './common-passwords'

export const MIN_PASSWORD_LENGTH = 8
export const MAX_PASSWORD_LENGTH = 256

/** argon2id at Bun's defaults: 64 MiB, 2 passes (above OWASP's minimums). */
export const ARGON2_DEFAULTS = { memoryCost: 65_536, timeCost: 2 } as const
let cost: { memoryCost: number; timeCost: number } = ARGON2_DEFAULTS

/**
 * The test suites' preload (tests/setup.ts) lowers the cost so that thousands of sign-ins do not
 * spend minutes of CPU; nothing else calls this, so a server or CLI always hashes at the defaults.
 * Stored hashes carry their own parameters, so verifying works across costs.
 */
export function setPasswordHashCost(next: { memoryCost: number; timeCost: number }) {
  cost = next
}

export function hashPassword(password: string): Promise<string> {
  return Bun.password.hash(password, { algorithm: 'argon2id', ...cost })
}

let dummyHash: Promise<string> | null = null

/** Verifies against the stored hash, or burns the same time against a dummy when there is none. */
export async function verifyPassword(password: string, hash: string | null | undefined): Promise<boolean> {
  if (!hash) {
    dummyHash ??= hashPassword('dummy-password-for-timing')
    await Bun.password.verify(password, await dummyHash).catch(() => false)
    return false
  }
  try {
    return await Bun.password.verify(password, hash)
  } catch {
    return false
  }
}

/**
 * The spec's text, or null when the password is acceptable. Every place a password is chosen calls
 * it: sign-up, reset, change and `dibs users create`.
 */
export function passwordProblem(password: string): string | null {
  if (password.length < MIN_PASSWORD_LENGTH) return 'Password must be at least 8 characters long'
  if (password.length > MAX_PASSWORD_LENGTH) return `Password must be at most ${MAX_PASSWORD_LENGTH} characters long`
  if (!password.trim()) return 'Password cannot be only spaces'
  if (isCommonPassword(password)) return COMMON_PASSWORD_TEXT
  return null
}
