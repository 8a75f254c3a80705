// Mail authentication starts with the sender's domain: SPF, DKIM and DMARC are all published in
// the DNS of the domain after the @ of MAIL_FROM. An address at an IP literal, at localhost or at
// a name that is not a public domain cannot pass any of them, so receivers file it as spam or
// refuse it. The default MAIL_FROM (no-reply@<APP_URL host>) is such an address whenever APP_URL
// names an IP or localhost: doctor fails on it, and a server warns at startup.

/** Top-level names that are never public (RFC 2606, RFC 6761, RFC 6762, RFC 8375). */
const PRIVATE_TLDS = new Set(['localhost', 'local', 'test', 'invalid', 'example', 'internal', 'lan', 'home', 'arpa'])

/** The domain of a From value ("Dibs <no-reply@example.com>" or a bare address), lower-cased; null when unreadable. */
export function mailDomain(from: string): string | null {
  const address = /<([^>]+)>/.exec(from)?.[1] ?? from
  const at = address.lastIndexOf('@')
  if (at < 0) return null
  return address
    .slice(at + 1)
    .trim()
    .replace(/^\[|\]$/g, '')
    .toLowerCase()
}

/** Why receivers cannot authenticate mail from this sender, or null when its domain can carry SPF/DKIM/DMARC. */
export function mailFromProblem(from: string): string | null {
  const domain = mailDomain(from)
  if (!domain) return `MAIL_FROM "${from}" has no domain`
  if (/^\d{1,3}(\.\d{1,3}){3}$/.test(domain) || domain.includes(':'))
    return `MAIL_FROM is at an IP address (${domain}), which cannot publish SPF, DKIM or DMARC`
  const labels = domain.split('.')
  if (labels.length < 2 || PRIVATE_TLDS.has(labels.at(-1)!)) return `MAIL_FROM is at ${domain}, not a public domain, which cannot publish SPF, DKIM or DMARC`
  return null
}

export const MAIL_FROM_FIX = 'set MAIL_FROM to an address on a domain you control (Dibs <alerts@example.com>) and publish SPF and DKIM for it'
