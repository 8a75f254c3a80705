// Gotify (https://gotify.net/docs): POST <server>/message with the application's token in
// X-Gotify-Key and JSON {title, message, priority, extras}; `client::notification.click.url` makes
// a tap open the post, and the message is markdown (`client::display`) with Claim and Open links.
// Answers 200 with the message; 401/403 (a wrong or deleted app token) fail for good with words.
import { PermanentFailure } from '../queue'
import { judge } from './http'
import { alertLinks, alertText, defineProvider, publicUrlField, textField } from './provider'

export const gotify = defineProvider({
  kind: 'gotify',
  label: 'Gotify',
  setup: 'In your Gotify web UI: Apps → Create Application, then copy its token; the URL is your Gotify server’s address.',
  fields: [
    { name: 'url', label: 'Server URL', type: 'url', required: true, placeholder: 'https://gotify.example.com' },
    { name: 'token', label: 'Application token', type: 'secret', required: true, placeholder: 'AbCdEf.123456' },
  ],
  async validate(deps, input, resolve) {
    const url = await publicUrlField(deps, input, 'url', 'Server URL', resolve)
    const token = textField(input, 'token', 'application token', 200)
    return { url: url.toString().replace(/\/+$/, ''), secret: token, options: {} }
  },
  request(deps, ep, alert) {
    const t = alertText(alert, deps.config.appName)
    const links = alertLinks(alert)
    const md = [...t.lines, ...(links.claim ? [`[Claim](${links.claim}) · [Open](${links.open})`] : [`[Open](${links.open})`])].join('\n\n')
    return {
      method: 'POST',
      url: `${ep.url.replace(/\/+$/, '')}/message`,
      headers: { 'content-type': 'application/json', 'x-gotify-key': ep.secret ?? '' },
      body: JSON.stringify({
        title: t.title,
        message: md,
        priority: 5,
        extras: { 'client::display': { contentType: 'text/markdown' }, 'client::notification': { click: { url: links.claim ?? links.open } } },
      }),
    }
  },
  judge(r) {
    if (r.status === 401 || r.status === 403)
      throw new PermanentFailure('Gotify refused the application token: create a new application token and add the channel again')
    judge(r)
  },
})
