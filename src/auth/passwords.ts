// Password hashing with Bun.password (argon2id). Unknown accounts still pay for one verify
// against a dummy hash, so response time does not reveal whether an email has an account.
export const MIN_PASSWORD_LENGTH = 8
export const MAX_PASSWORD_LENGTH = 256

export function hashPassword(password: string): Promise<string> {
  return Bun.password.hash(password, { algorithm: 'argon2id' })
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

/** The spec's text, or null when the password is acceptable. */
export function passwordProblem(password: string): string | null {
  if (password.length < MIN_PASSWORD_LENGTH) return 'Password must be at least 8 characters long'
  if (password.length > MAX_PASSWORD_LENGTH) return `Password must be at most ${MAX_PASSWORD_LENGTH} characters long`
  if (!password.trim()) return 'Password cannot be only spaces'
  return null
}
