// Apprise (https://github.com/caronc/apprise-api): POST {APPRISE_URL}/notify — the stateless
// endpoint — with JSON {urls, title, body, type, format}: the Apprise API server sends to each of the
// user's Apprise URLs (tgram://…, mailto://…, pover://…: the 100+ services Apprise knows). The server
// is the admin's (APPRISE_URL); the user's URLs are stored as a secret (they hold their tokens) and
// only their schemes are shown. Answers: 200 sent; 424 one or more services failed (retried);
// 400 (a URL Apprise cannot read) fails for good.
import { PermanentFailure } from '../queue'
import { judge } from './http'
import { alertLinks, alertText, defineProvider, fieldError, textField } from './provider'

/** The user's Apprise URLs: one per line (or separated by commas or spaces), each `scheme://…`. */
export function appriseUrls(raw: string): string[] {
  return raw
    .split(/[\s,]+/)
    .map((u) => u.trim())
    .filter(Boolean)
}

export const apprise = defineProvider({
  kind: 'apprise',
  label: 'Apprise',
  setup:
    'Apprise URLs of the services you use, one per line (e.g. tgram://bottoken/ChatID, mailto://user:pass@example.com); see the Apprise wiki for each service’s URL.',
  fields: [{ name: 'urls', label: 'Apprise URLs', type: 'textarea', required: true, placeholder: 'tgram://123456:ABC-DEF/987654\npover://userkey@apptoken' }],
  unavailable: (config) =>
    config.notifyProviders.appriseUrl ? null : 'Apprise is not set up on this installation (the admin sets APPRISE_URL to an Apprise API server).',
  async validate(_deps, input) {
    const urls = appriseUrls(textField(input, 'urls', 'Apprise URLs', 4000))
    if (urls.length > 20) throw fieldError('urls', 'At most 20 Apprise URLs per channel.')
    const bad = urls.find((u) => !/^[a-z][a-z0-9+.-]{1,31}:\/\/\S+$/i.test(u))
    if (bad) throw fieldError('urls', `Not an Apprise URL (scheme://…): ${bad.slice(0, 60)}`)
    return { url: urls.map((u) => `${u.split('://')[0]!.toLowerCase()}://…`).join(', '), secret: urls.join('\n'), options: {} }
  },
  request(deps, ep, alert) {
    const t = alertText(alert, deps.config.appName)
    const links = alertLinks(alert)
    const body = [...t.lines, ...(links.claim ? [`Claim: ${links.claim}`] : []), `Open: ${links.open}`].join('\n')
    return {
      method: 'POST',
      url: `${deps.config.notifyProviders.appriseUrl ?? ''}/notify`,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ urls: appriseUrls(ep.secret ?? '').join(','), title: t.title, body, type: 'info', format: 'text' }),
    }
  },
  judge(r) {
    if (r.status === 424) throw new Error('Apprise could not deliver to one or more of your services (424); retrying')
    if (r.status === 400) throw new PermanentFailure(`Apprise refused the request (400: ${r.text.slice(0, 120) || 'check your Apprise URLs'})`)
    judge(r)
  },
})
