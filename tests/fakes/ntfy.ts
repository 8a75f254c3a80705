// A local ntfy server: POST /<topic> publishes (body = message; Title, Priority, Tags, Click
// headers; `Authorization: Bearer <token>` when the topic is protected) and answers the message
// JSON the way ntfy does; a wrong token gets ntfy's 403 JSON error.
import { recordingServer } from './http-recorder'

export function fakeNtfy(opts: { token?: string } = {}) {
  let n = 0
  return recordingServer(
    (req) => {
      const topic = req.path.slice(1)
      const message = { id: `msg${++n}`, time: Math.floor(Date.now() / 1000), event: 'message', topic, title: req.headers.title, message: req.body }
      return { status: 200, body: JSON.stringify(message), headers: { 'content-type': 'application/json' } }
    },
    (req) => {
      if (!/^\/[\w-]{1,64}$/.test(req.path)) return { status: 404, body: '{"code":40401,"http":404,"error":"page not found"}' }
      if (opts.token && req.headers.authorization !== `Bearer ${opts.token}`)
        return { status: 403, body: '{"code":40301,"http":403,"error":"forbidden"}', headers: { 'content-type': 'application/json' } }
      return null
    },
  )
}
