// A local Apprise API server's stateless endpoint (https://github.com/caronc/apprise-api): POST
// /notify with JSON {urls, body, title?, type?, format?}. `urls` is a comma/space separated list of
// Apprise URLs; each must have a scheme Apprise knows (a small list here). Answers 200 when sent,
// 400 without a body or with a URL it cannot read, 424 when a service failed (`failService()`).
import { recordingServer } from './http-recorder'

const KNOWN = ['tgram', 'discord', 'mailto', 'mailtos', 'pover', 'gotify', 'gotifys', 'ntfy', 'ntfys', 'slack', 'matrix', 'matrixs', 'json', 'jsons']

export function fakeApprise() {
  const base = recordingServer(
    () => ({ status: 200, body: 'Notification(s) sent.' }),
    (req) => {
      if (req.method !== 'POST' || req.path !== '/notify') return { status: 404, body: 'Not Found' }
      let b: { urls?: string; body?: string }
      try {
        b = JSON.parse(req.body)
      } catch {
        return { status: 400, body: 'Invalid JSON specified.' }
      }
      if (!b.body) return { status: 400, body: 'Bad FORM Payload provided.' }
      const urls = (b.urls ?? '').split(/[\s,]+/).filter(Boolean)
      if (urls.length === 0 || urls.some((u) => !KNOWN.includes(u.split('://')[0]!.toLowerCase())))
        return { status: 400, body: 'One or more of the URLs provided could not be loaded.' }
      return null
    },
  )
  return { ...base, failService: () => base.failNext({ status: 424, body: 'One or more notification could not be sent.' }) }
}
