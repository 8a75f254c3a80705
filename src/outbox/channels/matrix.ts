// Matrix (client-server API, https://spec.matrix.org/latest/client-server-api/): PUT
// <homeserver>/_matrix/client/v3/rooms/{roomId}/send/m.room.message/{txnId} with the user's access
// token as Bearer and an m.text message (plain `body` and HTML `formatted_body` with Claim and
// Open links). The transaction id is the delivery's (the outbox row's dedupe key), so a retry
// after a lost answer is the same event, not a second one. Errors are JSON {errcode, error}:
// M_UNKNOWN_TOKEN (401: the token was revoked or the session signed out) and M_FORBIDDEN (the
// account is not in the room) fail for good and say what to do; M_LIMIT_EXCEEDED (429) waits
// retry_after_ms.
import { PermanentFailure, RetryLater } from '../queue'
import { judge, retryAfterHeaderMs } from './http'
import { alertLinks, alertText, defineProvider, fieldError, publicUrlField, textField } from './provider'

const html = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')

export const MATRIX_TOKEN_TEXT =
  'Matrix refused the access token (M_UNKNOWN_TOKEN): it was revoked or its session signed out. Copy a new access token and add the channel again'

export const matrix = defineProvider({
  kind: 'matrix',
  label: 'Matrix',
  setup:
    'Your homeserver’s URL, the room’s internal ID (Room settings → Advanced, starts with !) and an access token of an account in that room (Element: Settings → Help & About → Access Token).',
  fields: [
    { name: 'homeserver', label: 'Homeserver URL', type: 'url', required: true, placeholder: 'https://matrix.example.org' },
    { name: 'roomId', label: 'Room ID', type: 'text', required: true, placeholder: '!abcdefgh:example.org' },
    { name: 'accessToken', label: 'Access token', type: 'secret', required: true, placeholder: 'syt_…' },
  ],
  async validate(deps, input, resolve) {
    const url = await publicUrlField(deps, input, 'homeserver', 'Homeserver URL', resolve)
    const roomId = textField(input, 'roomId', 'room ID', 255)
    if (!/^![^:\s]+:\S+$/.test(roomId)) throw fieldError('roomId', 'Enter the room’s internal ID, like !abcdefgh:example.org (Room settings → Advanced).')
    const token = textField(input, 'accessToken', 'access token', 500)
    return { url: url.toString().replace(/\/+$/, ''), secret: token, options: { roomId } }
  },
  view: (ep) => ({ roomId: (ep.options as { roomId?: string }).roomId ?? null }),
  request(deps, ep, alert, deliveryId) {
    const t = alertText(alert, deps.config.appName)
    const links = alertLinks(alert)
    const roomId = (ep.options as { roomId?: string }).roomId ?? ''
    const txnId = `dibs-${deliveryId.replace(/[^\w.-]/g, '_')}`
    const linkLine = links.claim ? `Claim: ${links.claim}\nOpen: ${links.open}` : `Open: ${links.open}`
    const linkHtml = links.claim
      ? `<a href="${html(links.claim)}">Claim</a> · <a href="${html(links.open)}">Open</a>`
      : `<a href="${html(links.open)}">Open</a>`
    return {
      method: 'PUT',
      url: `${ep.url.replace(/\/+$/, '')}/_matrix/client/v3/rooms/${encodeURIComponent(roomId)}/send/m.room.message/${encodeURIComponent(txnId)}`,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${ep.secret ?? ''}` },
      body: JSON.stringify({
        msgtype: 'm.text',
        body: [t.title, ...t.lines, linkLine].join('\n'),
        format: 'org.matrix.custom.html',
        formatted_body: `<strong>${html(t.title)}</strong><br>${t.lines.map(html).join('<br>')}<br>${linkHtml}`,
      }),
    }
  },
  judge(r) {
    if (r.status >= 200 && r.status < 300) return
    let e: { errcode?: string; error?: string; retry_after_ms?: number } = {}
    try {
      e = JSON.parse(r.text)
    } catch {
      // not Matrix's JSON: the status decides
    }
    if (e.errcode === 'M_UNKNOWN_TOKEN' || e.errcode === 'M_MISSING_TOKEN') throw new PermanentFailure(MATRIX_TOKEN_TEXT)
    if (e.errcode === 'M_FORBIDDEN')
      throw new PermanentFailure(`Matrix: the account cannot post in this room (M_FORBIDDEN: ${e.error ?? ''}); invite it or check the room ID`)
    if (r.status === 429) throw new RetryLater(`Matrix asked to slow down (${e.errcode ?? '429'})`, e.retry_after_ms ?? retryAfterHeaderMs(r.headers) ?? 0)
    judge(r)
  },
})
