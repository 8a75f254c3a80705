// Slack incoming webhook (https://api.slack.com/messaging/webhooks): POST JSON {text, blocks} to
// https://hooks.slack.com/services/T…/B…/…; `text` is the notification's fallback, the blocks show
// the post with Claim and Open buttons (url buttons need no Slack app). Slack answers 200 "ok";
// its errors are words in the body (invalid_payload 400, action_prohibited 403, no_service 404,
// channel_is_archived 410) and fail for good; 429 waits for Retry-After.
import { PermanentFailure } from '../queue'
import { judge } from './http'
import { alertLinks, alertText, cut, defineProvider, fieldError, publicUrlField } from './provider'
import type { ExternalAlert } from './types'

const SLACK_WORDS: Record<string, string> = {
  no_service: 'the webhook was removed or revoked',
  channel_not_found: 'the channel no longer exists',
  channel_is_archived: 'the channel is archived',
  action_prohibited: 'a workspace admin restricted this webhook',
  invalid_token: 'the webhook URL is no longer valid',
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')

export function slackBody(alert: ExternalAlert, appName: string) {
  const t = alertText(alert, appName)
  const links = alertLinks(alert)
  const buttons = [
    ...(links.claim ? [{ type: 'button', text: { type: 'plain_text', text: 'Claim' }, url: links.claim, style: 'primary' }] : []),
    { type: 'button', text: { type: 'plain_text', text: 'Open' }, url: links.open },
  ]
  return {
    text: cut(`${t.title}: ${t.lines[0] ?? ''}`, 3000),
    blocks: [
      { type: 'section', text: { type: 'mrkdwn', text: cut(`*${esc(t.title)}*\n<${links.open}|${esc(t.lines[0] ?? '')}>`, 3000) } },
      ...(t.lines.length > 1 ? [{ type: 'context', elements: [{ type: 'mrkdwn', text: cut(esc(t.lines.slice(1).join('\n')), 3000) }] }] : []),
      { type: 'actions', elements: buttons },
    ],
  }
}

export const slack = defineProvider({
  kind: 'slack',
  label: 'Slack',
  setup: 'Create an incoming webhook (api.slack.com/apps → your app → Incoming Webhooks → Add New Webhook) and paste its URL.',
  fields: [{ name: 'url', label: 'Webhook URL', type: 'url', required: true, placeholder: 'https://hooks.slack.com/services/T…/B…/…' }],
  async validate(deps, input, resolve) {
    const text = typeof input.url === 'string' ? input.url.trim() : ''
    if (!deps.config.channelsAllowPrivate) {
      const u = URL.canParse(text) ? new URL(text) : null
      if (!u || u.hostname.toLowerCase() !== 'hooks.slack.com' || !/^\/services\/[\w-]+\/[\w-]+\/[\w-]+\/?$/.test(u.pathname))
        throw fieldError('url', 'Enter a Slack incoming webhook URL (https://hooks.slack.com/services/…)')
    }
    const url = await publicUrlField(deps, input, 'url', 'Webhook URL', resolve)
    return { url: url.toString(), secret: null, options: {} }
  },
  // the last path segment is the secret part
  view: (ep) => ({ url: ep.url.replace(/\/[^/]+\/?$/, '/…') }),
  request: (deps, ep, alert) => ({
    method: 'POST',
    url: ep.url,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(slackBody(alert, deps.config.appName)),
  }),
  judge(r) {
    const word = r.text.trim()
    if (r.status >= 400 && r.status < 500 && r.status !== 429 && r.status !== 408 && /^[a-z_]+$/.test(word))
      throw new PermanentFailure(`Slack: ${word}${SLACK_WORDS[word] ? ` (${SLACK_WORDS[word]})` : ''}`)
    judge(r)
  },
})
