// Links that come from outside (a Reddit post's `url`) reach hrefs in the UI and in emails: only
// absolute http(s) URLs pass; `javascript:`, `data:`, relative and malformed values become null.

export function httpUrl(value: string | null | undefined): string | null {
  if (typeof value !== 'string' || !value) return null
  try {
    const u = new URL(value.trim())
    return u.protocol === 'http:' || u.protocol === 'https:' ? value.trim() : null
  } catch {
    return null
  }
}

/** A URL as it may be shown in logs and errors: its password (a database URL's) replaced by "…". */
export function withoutPassword(text: string): string {
  try {
    const password = new URL(text).password
    return password ? text.replace(`:${password}@`, ':…@') : text
  } catch {
    return text
  }
}
