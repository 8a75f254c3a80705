// Telegram (Bot API, https://core.telegram.org/bots/api) through the installation's bot
// (TELEGRAM_BOT_TOKEN; TELEGRAM_API_URL is the API host, a stand-in in tests). The user adds the
// channel with no fields: the answer carries a one-time `linkCode`, and the user sends
// `/start <linkCode>` to the bot (or opens https://t.me/<bot>?start=<linkCode>). The
// `telegram-updates` job reads the bot's updates by long polling (getUpdates, offset = the last
// update + 1, so each is handled once per process and confirmed to Telegram by the next call):
//   - `/start <code>` links the chat to the channel whose code it is (the code is then spent);
//   - a press of 'Mark read' (callback_query `read:<matchId>`) marks the match read for the
//     channel's owner and is answered (answerCallbackQuery) so the button stops spinning.
// Alerts are sendMessage with HTML text and an inline keyboard: Claim and Open (url buttons), Mark
// read (callback). Errors are JSON {ok: false, error_code, description, parameters}: 429 waits
// parameters.retry_after; 403 (the user blocked the bot) and 400 "chat not found" fail for good
// with words; 401 is the admin's bot token.
import type { Config } from '../../config'
import { asAsync } from '../../db/async-sqlite'
import type { Deps } from '../../deps'
import { JOB, logJob } from '../../jobs/log'
import { log } from '../../lib/log'
import { randomToken } from '../../lib/tokens'
import { PermanentFailure, RetryLater } from '../queue'
import { postTo, retryAfterHeaderMs, type Endpoint, type PostResult } from './http'
import { alertLinks, alertText, cut, defineProvider, type ProviderHooks } from './provider'

type TelegramOptions = { linkCode?: string; botUsername?: string | null; chatId?: number | null; chatName?: string | null; linkedAt?: string | null }
type TgAnswer<T> = { ok: boolean; result?: T; error_code?: number; description?: string; parameters?: { retry_after?: number } }

const opts = (ep: Endpoint) => ep.options as TelegramOptions
const html = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')

function method(config: Config, name: string): string {
  return `${config.notifyProviders.telegramApiUrl}/bot${config.notifyProviders.telegramBotToken ?? ''}/${name}`
}

/** One Bot API call (JSON POST through the SSRF-checked sender); the parsed answer. */
async function call<T>(deps: Pick<Deps, 'config'>, name: string, body: unknown, timeoutMs?: number): Promise<{ r: PostResult; a: TgAnswer<T> }> {
  const r = await postTo(deps, method(deps.config, name), { 'content-type': 'application/json' }, JSON.stringify(body), { timeoutMs })
  let a: TgAnswer<T> = { ok: false }
  try {
    a = JSON.parse(r.text)
  } catch {
    // postTo keeps 300 characters: a long getUpdates answer is read again below
  }
  return { r, a }
}

const botNames = new Map<string, string>()

/** The bot's @username (getMe), once per token. */
export async function botUsername(deps: Pick<Deps, 'config'>): Promise<string | null> {
  const token = deps.config.notifyProviders.telegramBotToken
  if (!token) return null
  const known = botNames.get(token)
  if (known) return known
  const { a } = await call<{ username?: string }>(deps, 'getMe', {}).catch(() => ({ a: { ok: false } as TgAnswer<{ username?: string }> }))
  if (!a.ok || !a.result?.username) return null
  botNames.set(token, a.result.username)
  return a.result.username
}

export const telegramStartText = (code: string, bot: string | null) => `Send /start ${code} to ${bot ? `@${bot}` : 'the bot'} in Telegram.`

export function telegramMessage(alert: Parameters<typeof alertText>[0], appName: string) {
  const t = alertText(alert, appName)
  const links = alertLinks(alert)
  const row1 = [...(links.claim ? [{ text: 'Claim', url: links.claim }] : []), { text: 'Open', url: links.open }]
  const row2 = alert.type === 'summary' ? [] : [{ text: 'Mark read', callback_data: `read:${alert.match.id}` }]
  return {
    text: cut(`<b>${html(t.title)}</b>\n${t.lines.map(html).join('\n')}`, 4096),
    parse_mode: 'HTML',
    link_preview_options: { is_disabled: true },
    reply_markup: { inline_keyboard: [row1, ...(row2.length ? [row2] : [])] },
  }
}

export const telegram = defineProvider({
  kind: 'telegram',
  label: 'Telegram',
  setup: 'Add the channel, then send the /start code it shows to the bot in Telegram: the chat you send it from receives the alerts.',
  fields: [],
  unavailable: (config) =>
    config.notifyProviders.telegramBotToken ? null : 'Telegram is not set up on this installation (the admin sets TELEGRAM_BOT_TOKEN).',
  async validate(deps) {
    const linkCode =
      randomToken(9)
        .replace(/[^A-Za-z0-9]/g, '')
        .slice(0, 10) || randomToken(12).slice(0, 10)
    return { url: 'not linked yet', secret: null, options: { linkCode, botUsername: await botUsername(deps), chatId: null } satisfies TelegramOptions }
  },
  view: (ep) => {
    const o = opts(ep)
    const linked = o.chatId !== null && o.chatId !== undefined
    return {
      linked,
      botUsername: o.botUsername ?? null,
      linkCode: linked ? null : (o.linkCode ?? null),
      startCommand: linked ? null : `/start ${o.linkCode}`,
      url: linked ? `chat ${o.chatName ?? o.chatId}` : 'not linked yet',
    }
  },
  created: (ep) => ({
    linkCode: opts(ep).linkCode,
    botUsername: opts(ep).botUsername ?? null,
    startCommand: `/start ${opts(ep).linkCode}`,
    startLink: opts(ep).botUsername ? `https://t.me/${opts(ep).botUsername}?start=${opts(ep).linkCode}` : null,
  }),
  notReady: (ep) => (opts(ep).chatId ? null : `not linked yet: ${telegramStartText(opts(ep).linkCode ?? '', opts(ep).botUsername ?? null)}`),
  request: (deps, ep, alert) => ({
    method: 'POST',
    url: method(deps.config, 'sendMessage'),
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ chat_id: opts(ep).chatId, ...telegramMessage(alert, deps.config.appName) }),
  }),
  judge(r) {
    let a: TgAnswer<unknown> = { ok: r.status >= 200 && r.status < 300 }
    try {
      a = JSON.parse(r.text)
    } catch {
      // not the Bot API's JSON: the status decides
    }
    if (a.ok && r.status < 300) return
    const what = a.description ?? `answered ${r.status}`
    if (r.status === 429) throw new RetryLater(`Telegram: ${what}`, (a.parameters?.retry_after ?? 0) * 1000 || (retryAfterHeaderMs(r.headers) ?? 0))
    if (r.status >= 500) throw new Error(`Telegram: ${what}`)
    if (r.status === 403) throw new PermanentFailure(`Telegram: ${what} (unblock the bot, or remove this channel and link the chat again)`)
    if (r.status === 401) throw new PermanentFailure(`Telegram refused the bot token (${what}): the admin checks TELEGRAM_BOT_TOKEN`)
    throw new PermanentFailure(`Telegram: ${what}`)
  },
  jobs: (hooks) => {
    const poller = telegramPoller(hooks)
    return [{ name: 'telegram-updates', every: 1000, run: (deps: Deps) => poller.poll(deps), abort: () => poller.abort() }]
  },
})

type Chat = { id: number; type?: string; title?: string; username?: string; first_name?: string }
export type TgUpdate = {
  update_id: number
  message?: { message_id: number; chat: Chat; text?: string }
  callback_query?: { id: string; data?: string; message?: { chat: Chat } }
}

/**
 * Links the chat to the channel whose one-time code `/start <code>` carries; the reply it sends. The
 * options are read and written in one transaction: a settings change in flight (src/notify/endpoints.ts
 * updateEndpoint, its own transaction) is not written over (docs/atomicity-audit.md C6).
 */
export async function linkChat(
  deps: Pick<Deps, 'db' | 'now'>,
  hooks: Pick<ProviderHooks, 'telegramEndpointByLinkCode' | 'markTelegramLinked'>,
  code: string,
  chat: Chat,
): Promise<string> {
  const chatName = chat.title ?? (chat.username ? `@${chat.username}` : (chat.first_name ?? String(chat.id)))
  const linked = await asAsync(deps.db).transaction(async (tx) => {
    const ep = await hooks.telegramEndpointByLinkCode({ db: tx }, code)
    if (!ep || opts(ep).chatId) return false
    const options: TelegramOptions = { ...opts(ep), chatId: chat.id, chatName, linkedAt: deps.now().toISOString(), linkCode: undefined }
    await hooks.markTelegramLinked({ db: tx, now: deps.now }, ep.id, options, `chat ${chatName}`)
    return true
  })
  if (!linked) return 'That code is not valid or was already used. In Dibs, add a Telegram channel in Notification Settings to get a new one.'
  return 'Linked. Dibs alerts will arrive in this chat, with Claim, Open and Mark read buttons.'
}

/** Handles one update; returns what it did (tests read it). */
export async function handleTelegramUpdate(deps: Deps, hooks: ProviderHooks, u: TgUpdate): Promise<string> {
  const text = u.message?.text?.trim()
  if (u.message && text?.startsWith('/start')) {
    const code = text.split(/\s+/)[1] ?? ''
    const reply = code
      ? await linkChat(deps, hooks, code, u.message.chat)
      : 'Send /start followed by the code Dibs showed you when you added the Telegram channel.'
    await call(deps, 'sendMessage', { chat_id: u.message.chat.id, text: reply })
    return reply.startsWith('Linked') ? 'linked' : 'refused'
  }
  const q = u.callback_query
  if (q) {
    const matchId = /^read:(\d+)$/.exec(q.data ?? '')?.[1]
    let answer = 'This chat is not linked to Dibs.'
    if (matchId !== undefined && q.message) {
      const owners = await hooks.telegramChatOwners(deps, q.message.chat.id)
      if (owners.length > 0) answer = Number(matchId) === 0 ? 'This was a test alert.' : 'Match not found.'
      for (const userId of owners)
        if (Number(matchId) > 0 && (await hooks.markRead(deps, userId, Number(matchId)))) {
          answer = 'Marked read'
          break
        }
    }
    await call(deps, 'answerCallbackQuery', { callback_query_id: q.id, text: answer })
    return answer
  }
  return 'ignored'
}

/** Long polling of getUpdates, one call per run (the job runs again at once); `abort` ends a call in flight (shutdown). */
export function telegramPoller(hooks: ProviderHooks, timeoutS = 25) {
  let offset: number | undefined
  let controller: AbortController | null = null
  /** why getUpdates fails now (null: it answers): a change is written to the job log, which Admin → Logs shows */
  let failing: string | null = null
  return {
    async poll(deps: Deps, timeout = timeoutS): Promise<number> {
      const { config } = deps
      if (!config.notifyProviders.telegramBotToken) return 0
      controller = new AbortController()
      const res = await fetch(method(config, 'getUpdates'), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ offset, timeout, allowed_updates: ['message', 'callback_query'] }),
        signal: AbortSignal.any([controller.signal, AbortSignal.timeout((timeout + 10) * 1000)]),
        redirect: 'manual',
      }).finally(() => (controller = null))
      const a = (await res.json().catch(() => ({ ok: false }))) as TgAnswer<TgUpdate[]>
      if (!a.ok) {
        const why = `getUpdates answered ${res.status}${a.description ? `: ${a.description}` : ''}${res.status === 401 ? ' (check TELEGRAM_BOT_TOKEN)' : res.status === 409 ? ' (another process reads this bot’s updates)' : ''}`
        if (why !== failing)
          await logJob(deps, JOB.telegram, 'failed', 0, { error: `Telegram chats cannot be linked and Mark read presses are not seen: ${why}` })
        failing = why
        log.warn('telegram: getUpdates failed', { status: res.status, description: a.description ?? '' })
        // Telegram's 429 names its wait; otherwise a short pause keeps a broken token from spinning
        await Bun.sleep(Math.min(60, a.parameters?.retry_after ?? 5) * 1000)
        return 0
      }
      if (failing !== null) await logJob(deps, JOB.telegram, 'success', 0, { recovered: failing })
      failing = null
      for (const u of a.result ?? []) {
        offset = u.update_id + 1
        await handleTelegramUpdate(deps, hooks, u).catch((err) => log.warn('telegram: update not handled', { error: String(err) }))
      }
      return a.result?.length ?? 0
    },
    abort: () => controller?.abort(),
  }
}
