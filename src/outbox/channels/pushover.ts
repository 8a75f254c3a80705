// Pushover (https://pushover.net/api): POST {PUSHOVER_API_URL}/1/messages.json, form-encoded, with
// the installation's application token (PUSHOVER_APP_TOKEN, the admin's) and the user's user key.
// The message carries the title, the post and its terms; `url`/`url_title` make the Claim link
// (Open is in the text). Answers: 200 {status: 1, request}; 4xx {status: 0, errors: [...]} → fails
// for good with Pushover's words (a wrong user key says so); 429 when the application has used its
// monthly messages → retried no sooner than Retry-After, else the limit's reset (X-Limit-App-Reset).
import { PermanentFailure, RetryLater } from '../queue'
import { retryAfterHeaderMs, type PostResult } from './http'
import { alertLinks, alertText, cut, defineProvider, fieldError, textField } from './provider'

/** Pushover's 429: Retry-After if given, else until the application's monthly limit resets. */
function pushoverWaitMs(r: PostResult): number {
  const header = retryAfterHeaderMs(r.headers)
  if (header !== null) return header
  const reset = Number(r.headers.get('x-limit-app-reset'))
  return Number.isFinite(reset) && reset > 0 ? Math.max(0, reset * 1000 - Date.now()) : 60 * 60_000
}

export const pushover = defineProvider({
  kind: 'pushover',
  label: 'Pushover',
  setup: 'Your user key is at the top of your Pushover dashboard (pushover.net); the app token is the installation’s.',
  fields: [{ name: 'userKey', label: 'User key', type: 'secret', required: true, placeholder: 'uQiRzpo4DXghDmr9QzzfQu27cmVRsG' }],
  unavailable: (config) =>
    config.notifyProviders.pushoverAppToken ? null : 'Pushover is not set up on this installation (the admin sets PUSHOVER_APP_TOKEN).',
  async validate(_deps, input) {
    const key = textField(input, 'userKey', 'user key', 60)
    if (!/^[A-Za-z0-9]{30}$/.test(key)) throw fieldError('userKey', 'A Pushover user key is 30 letters and digits (see your Pushover dashboard).')
    return { url: 'https://pushover.net', secret: key, options: {} }
  },
  view: (ep) => ({ url: `user key ${ep.secret?.slice(0, 4)}…` }),
  request(deps, ep, alert) {
    const t = alertText(alert, deps.config.appName)
    const links = alertLinks(alert)
    const form = new URLSearchParams({
      token: deps.config.notifyProviders.pushoverAppToken ?? '',
      user: ep.secret ?? '',
      title: cut(t.title, 250),
      message: cut([...t.lines, ...(links.claim ? [`Open: ${links.open}`] : [])].join('\n'), 1024),
      url: cut(links.claim ?? links.open, 512),
      url_title: links.claim ? 'Claim' : 'Open',
      timestamp: String(Math.floor(deps.now().getTime() / 1000)),
    })
    return {
      method: 'POST',
      url: `${deps.config.notifyProviders.pushoverApiUrl}/1/messages.json`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form.toString(),
    }
  },
  judge(r) {
    let body: { status?: number; errors?: string[] } = {}
    try {
      body = JSON.parse(r.text)
    } catch {
      // not JSON (a proxy's page): judged by the status alone
    }
    if (r.status >= 200 && r.status < 300 && body.status !== 0) return
    if (r.status === 429)
      throw new RetryLater('Pushover: this installation has used its messages for the month; retrying when the limit resets', pushoverWaitMs(r))
    if (r.status >= 500) throw new Error(`Pushover answered ${r.status}`)
    throw new PermanentFailure(`Pushover: ${body.errors?.join('; ') || `answered ${r.status}`}`)
  },
})
