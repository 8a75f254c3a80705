// Common breached passwords are refused (ASVS 2.1.7). The list is data: common-passwords.txt beside
// this file, one password a line in lower case — the 10,000 most frequent of 8 characters or more
// (shorter ones fail the minimum length first) from the ranked "10 million passwords" list of Mark
// Burnett (xato.net) as @zxcvbn-ts/language-common 4.1.3 ships it (MIT). Embedded with the code, so
// the compiled executable needs no file at run time.
import list from './common-passwords.txt' with { type: 'text' }

export const COMMON_PASSWORD_TEXT = 'This password is too common: choose one that is harder to guess.'

let common: Set<string> | null = null

/** Is this password on the list (compared in lower case)? */
export function isCommonPassword(password: string): boolean {
  common ??= new Set(list.split('\n').filter(Boolean))
  return common.has(password.toLowerCase())
}
