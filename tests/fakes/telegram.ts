// A local Telegram Bot API (https://core.telegram.org/bots/api) for one bot: POST /bot<token>/<method>
// with JSON, answers {ok: true, result} or {ok: false, error_code, description, parameters}.
// getMe, sendMessage (chat must have started the bot; an inline keyboard's buttons need text and
// exactly one of url / callback_data ≤ 64 bytes; HTML parse mode checked for balanced tags),
// answerCallbackQuery (the query must exist and be answered once), getUpdates (offset confirms
// earlier updates; `timeout` is not waited on: tests poll with 0). The test plays the user:
// `userSends(chat, text)`, `userPresses(chat, data)`; `block(chat)` makes sendMessage 403;
// `rateLimit(s)` scripts the 429 with parameters.retry_after.
import { recordingServer, type Recorded } from './http-recorder'

type Update = Record<string, unknown> & { update_id: number }
const json = (status: number, body: unknown) => ({ status, body: JSON.stringify(body), headers: { 'content-type': 'application/json' } })
const fail = (code: number, description: string, parameters?: unknown) =>
  json(code, { ok: false, error_code: code, description, ...(parameters ? { parameters } : {}) })

export function fakeTelegram(opts: { token: string; username?: string }) {
  const username = opts.username ?? 'DibsTestBot'
  const updates: Update[] = []
  const started = new Set<number>()
  const blocked = new Set<number>()
  const callbacks = new Map<string, { answered: boolean; text?: string }>()
  const sent: { chatId: number; text: string; reply_markup?: { inline_keyboard: Record<string, string>[][] } }[] = []
  let nextUpdate = 1
  let nextMessage = 1

  const base = recordingServer(
    () => fail(404, 'Not Found'),
    (req: Recorded) => {
      const m = /^\/bot([^/]+)\/(\w+)$/.exec(req.path)
      if (!m) return fail(404, 'Not Found')
      if (m[1] !== opts.token) return fail(401, 'Unauthorized')
      let body: Record<string, unknown> = {}
      try {
        body = req.body ? JSON.parse(req.body) : {}
      } catch {
        return fail(400, "Bad Request: can't parse JSON")
      }
      switch (m[2]) {
        case 'getMe':
          return json(200, { ok: true, result: { id: 777, is_bot: true, first_name: 'Dibs', username } })
        case 'getUpdates': {
          const offset = typeof body.offset === 'number' ? body.offset : 0
          // confirmed updates are forgotten
          while (updates.length && updates[0]!.update_id < offset) updates.shift()
          return json(200, { ok: true, result: updates.slice(0, 100) })
        }
        case 'sendMessage': {
          const chatId = Number(body.chat_id)
          if (!started.has(chatId)) return fail(400, 'Bad Request: chat not found')
          if (blocked.has(chatId)) return fail(403, 'Forbidden: bot was blocked by the user')
          const text = String(body.text ?? '')
          if (!text.trim()) return fail(400, 'Bad Request: message text is empty')
          if (body.parse_mode === 'HTML' && (text.match(/<b>/g)?.length ?? 0) !== (text.match(/<\/b>/g)?.length ?? 0))
            return fail(400, "Bad Request: can't parse entities")
          const markup = body.reply_markup as { inline_keyboard?: Record<string, string>[][] } | undefined
          for (const row of markup?.inline_keyboard ?? [])
            for (const b of row) {
              if (!b.text || (b.url === undefined) === (b.callback_data === undefined)) return fail(400, 'Bad Request: BUTTON_TYPE_INVALID')
              if (b.callback_data !== undefined && Buffer.byteLength(b.callback_data) > 64) return fail(400, 'Bad Request: BUTTON_DATA_INVALID')
              if (b.url !== undefined && !/^https?:\/\//.test(b.url)) return fail(400, 'Bad Request: BUTTON_URL_INVALID')
            }
          sent.push({ chatId, text, reply_markup: markup as never })
          return json(200, {
            ok: true,
            result: { message_id: nextMessage++, chat: { id: chatId, type: 'private' }, date: Math.floor(Date.now() / 1000), text },
          })
        }
        case 'answerCallbackQuery': {
          const q = callbacks.get(String(body.callback_query_id))
          if (!q || q.answered) return fail(400, 'Bad Request: query is too old and response timeout expired or query ID is invalid')
          q.answered = true
          q.text = typeof body.text === 'string' ? body.text : undefined
          return json(200, { ok: true, result: true })
        }
        default:
          return fail(404, 'Not Found')
      }
    },
  )
  return {
    ...base,
    apiUrl: base.url,
    username,
    sent,
    callbacks,
    /** the user writes to the bot (a /start opens the chat) */
    userSends(chatId: number, text: string) {
      started.add(chatId)
      updates.push({
        update_id: nextUpdate++,
        message: { message_id: nextMessage++, date: Math.floor(Date.now() / 1000), chat: { id: chatId, type: 'private', first_name: 'Alice' }, text },
      })
    },
    /** the user presses an inline button of one of the bot's messages */
    userPresses(chatId: number, data: string) {
      const id = `cb${nextUpdate}`
      callbacks.set(id, { answered: false })
      updates.push({
        update_id: nextUpdate++,
        callback_query: {
          id,
          from: { id: chatId, is_bot: false, first_name: 'Alice' },
          chat_instance: 'ci',
          data,
          message: { message_id: 1, chat: { id: chatId, type: 'private' } },
        },
      })
      return id
    },
    block: (chatId: number) => void blocked.add(chatId),
    pendingUpdates: () => updates.length,
    rateLimit(seconds: number) {
      base.failNext(fail(429, `Too Many Requests: retry after ${seconds}`, { retry_after: seconds }))
    },
  }
}
