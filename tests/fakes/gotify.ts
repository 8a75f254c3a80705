// A local Gotify server (https://gotify.net/api-docs): POST /message with an application token
// (X-Gotify-Key header, or ?token=) and JSON {title?, message, priority?, extras?}; answers 200 with
// the stored message; a wrong token 401 with Gotify's error JSON; no message 400.
import { recordingServer } from './http-recorder'

export function fakeGotify(opts: { appToken: string }) {
  let id = 0
  const json = (status: number, body: unknown) => ({ status, body: JSON.stringify(body), headers: { 'content-type': 'application/json' } })
  return recordingServer(
    (req) => {
      const m = JSON.parse(req.body) as { title?: string; message: string; priority?: number; extras?: unknown }
      return json(200, {
        id: ++id,
        appid: 1,
        message: m.message,
        title: m.title ?? 'app',
        priority: m.priority ?? 0,
        extras: m.extras,
        date: new Date().toISOString(),
      })
    },
    (req) => {
      const url = new URL(`http://x${req.path}`)
      if (req.method !== 'POST' || url.pathname !== '/message') return json(404, { error: 'Not Found', errorCode: 404, errorDescription: 'page not found' })
      const token = req.headers['x-gotify-key'] ?? url.searchParams.get('token')
      if (token !== opts.appToken)
        return json(401, {
          error: 'Unauthorized',
          errorCode: 401,
          errorDescription: 'you need to provide a valid access token or user credentials to access this api',
        })
      try {
        const m = JSON.parse(req.body) as { message?: unknown }
        if (typeof m.message !== 'string' || !m.message) throw new Error()
      } catch {
        return json(400, { error: 'Bad Request', errorCode: 400, errorDescription: "Field 'message' is required" })
      }
      return null
    },
  )
}
