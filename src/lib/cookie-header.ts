// Reading one cookie from a Cookie request header (RFC 6265 pairs separated by "; ").
export function cookieValue(header: string | null, name: string): string | null {
  for (const part of (header ?? '').split(';')) {
    const [k, ...v] = part.trim().split('=')
    if (k !== name) continue
    const raw = v.join('=')
    try {
      return decodeURIComponent(raw)
    } catch {
      return raw
    }
  }
  return null
}
