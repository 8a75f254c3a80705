// The one layout of every email (account and alert). An email is a list of blocks rendered twice,
// as HTML and as plain text, so both parts always carry the same words and links.
//
// The HTML is built for webmail: Gmail, Outlook.com and Yahoo drop <head> styles and the <body>
// element's attributes, so everything sits on a full-width table with inline styles; every cell
// and paragraph names its colours (a dark client otherwise keeps our dark text on its dark
// background); the button is a link in a coloured table cell; long links wrap on a phone. In the
// text part a link is "label: URL" on its own line, so no punctuation is ever glued to a URL.

import { escapeHtml } from './html'

export type Link = { label: string; href: string }
export type Block =
  /** a paragraph */
  | { text: string }
  /** a section heading ("GAFS WTS (2)") */
  | { heading: string }
  /** a linked title with one line under it (a match) */
  | { item: Link; detail: string }
  /** links in a row; in the text part one "label: URL" line each */
  | { links: Link[] }
  /** text kept as typed, line breaks and all (a contact message) */
  | { pre: string }

export type EmailContent = {
  appName: string
  heading: string
  blocks: Block[]
  /** the call to action: a button, with the URL written out under it */
  button?: Link
  /** small print under a rule; the app's name when not given */
  footer?: Block[]
}

const FONT = "font-family:-apple-system,BlinkMacSystemFont,'Segoe UI',Roboto,Helvetica,Arial,sans-serif"
const C = { page: '#f4f4f5', card: '#ffffff', border: '#e4e4e7', text: '#18181b', muted: '#52525b', brand: '#b45309', link: '#1d4ed8', button: '#f59e0b' }
const P = `margin:0 0 16px;${FONT};font-size:16px;line-height:24px;color:${C.text}`
const SMALL = `margin:0 0 8px;${FONT};font-size:13px;line-height:20px;color:${C.muted}`
const WRAP = 'word-break:break-all;overflow-wrap:anywhere'

function a(link: Link, style = '') {
  return `<a href="${escapeHtml(link.href)}" target="_blank" style="color:${C.link};text-decoration:underline;${style}">${escapeHtml(link.label)}</a>`
}

function blockHtml(b: Block, p: string): string {
  if ('text' in b) return `<p style="${p}">${escapeHtml(b.text)}</p>`
  if ('heading' in b)
    return `<h2 style="margin:24px 0 8px;${FONT};font-size:17px;line-height:24px;font-weight:bold;color:${C.text}">${escapeHtml(b.heading)}</h2>`
  if ('item' in b)
    return `<p style="${p}">${a(b.item, 'font-weight:bold;overflow-wrap:anywhere')}<br><span style="font-size:14px;line-height:20px;color:${C.muted}">${escapeHtml(b.detail)}</span></p>`
  if ('links' in b) return `<p style="${p}">${b.links.map((l) => a(l)).join(' &middot; ')}</p>`
  return `<p style="${p};white-space:pre-wrap">${escapeHtml(b.pre)}</p>`
}

function blockText(b: Block): string {
  if ('text' in b) return b.text
  if ('heading' in b) return `== ${b.heading} ==`
  if ('item' in b) return `${b.item.label}\n${b.item.href}\n${b.detail}`
  if ('links' in b) return b.links.map((l) => `${l.label}: ${l.href}`).join('\n')
  return b.pre
}

function buttonHtml(button: Link): string {
  const href = escapeHtml(button.href)
  return `<table role="presentation" cellpadding="0" cellspacing="0" border="0" style="margin:8px 0 16px;border-collapse:separate">
<tr><td align="center" bgcolor="${C.button}" style="background-color:${C.button};border-radius:6px"><a href="${href}" target="_blank" style="display:inline-block;padding:12px 24px;${FONT};font-size:16px;line-height:20px;font-weight:bold;color:${C.text};text-decoration:none;border-radius:6px">${escapeHtml(button.label)}</a></td></tr>
</table>
<p style="${SMALL}">If the button does not work, paste this link into your browser:<br><a href="${href}" target="_blank" style="color:${C.link};${WRAP}">${href}</a></p>`
}

/** The HTML and text parts of one email. */
export function renderEmail(c: EmailContent): { html: string; text: string } {
  const body = c.blocks.map((b) => blockHtml(b, P)).join('\n')
  const small: Block[] = c.footer ?? [{ text: c.appName }]
  const footer = small.map((b) => blockHtml(b, SMALL)).join('\n')
  const html = `<!doctype html>
<html lang="en" dir="ltr">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light">
<meta name="supported-color-schemes" content="light">
<title>${escapeHtml(c.heading)}</title>
</head>
<body style="margin:0;padding:0;background-color:${C.page}">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" bgcolor="${C.page}" lang="en" dir="ltr" style="width:100%;background-color:${C.page};border-collapse:collapse">
<tr><td align="center" style="padding:24px 12px">
<!--[if mso]><table role="presentation" width="600" cellpadding="0" cellspacing="0" border="0"><tr><td><![endif]-->
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" bgcolor="${C.card}" style="width:100%;max-width:600px;background-color:${C.card};border:1px solid ${C.border};border-radius:8px;border-collapse:separate">
<tr><td bgcolor="${C.card}" style="padding:24px;background-color:${C.card};color:${C.text};${FONT};font-size:16px;line-height:24px;text-align:left">
<p style="margin:0 0 8px;${FONT};font-size:14px;line-height:20px;font-weight:bold;color:${C.brand}">${escapeHtml(c.appName)}</p>
<h1 style="margin:0 0 16px;${FONT};font-size:22px;line-height:28px;font-weight:bold;color:${C.text}">${escapeHtml(c.heading)}</h1>
${body}
${c.button ? buttonHtml(c.button) : ''}
<hr style="border:none;border-top:1px solid ${C.border};margin:24px 0 12px">
${footer}
</td></tr>
</table>
<!--[if mso]></td></tr></table><![endif]-->
</td></tr>
</table>
</body>
</html>
`
  const parts = [c.heading, ...c.blocks.map(blockText)]
  if (c.button) parts.push(`${c.button.label}: ${c.button.href}`)
  const text = `${parts.join('\n\n')}\n\n--\n${small.map(blockText).join('\n')}\n`
  return { html, text }
}

/** A whole message (to, subject and both parts; a MailMessage of src/outbox/mailer.ts); a plain string is a paragraph. */
export function composeEmail(to: string, subject: string, content: Omit<EmailContent, 'blocks'> & { blocks: (string | Block)[] }) {
  const blocks = content.blocks.map((b) => (typeof b === 'string' ? { text: b } : b))
  return { to, subject, ...renderEmail({ ...content, blocks }) }
}
