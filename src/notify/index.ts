// Notification routes: preferences (with quiet hours), the wait before email and push (./hold.ts),
// external channels (every provider of src/outbox/channels/registry.ts), push subscriptions, VAPID key, unsubscribe, contact form.
// Services (prefs, push-subscriptions, unsubscribe, contact) never see Elysia's Context.
import { Elysia, t } from 'elysia'
import { authPlugin } from '../auth/plugin'
import { readSessionToken, validateSession } from '../auth/session'
import { clientIp, type ServerLike } from '../auth/sign-in'
import type { Deps } from '../deps'
import { tooMany } from '../lib/errors'
import { RateLimiter } from '../lib/rate-limit'
import { followAlertLink, postAlertLink } from './alert-links'
import { submitContact } from './contact'
import { holdRoutes } from './hold'
import {
  addEndpoint,
  ENDPOINT_KINDS,
  endpointPayload,
  listEndpoints,
  MAX_RATE_PER_MINUTE,
  regenerateSecret,
  removeEndpoint,
  testEndpoint,
  updateEndpoint,
} from './endpoints'
import { PROVIDERS } from '../outbox/channels/registry'
import { prefsView, updatePrefs, EMAIL_FREQUENCIES } from './prefs'
import { deleteSubscription, saveSubscription } from './push-subscriptions'
import { unsubscribe, unsubscribePageFor } from './unsubscribe'
import {
  NotificationsChannelsGetResponse,
  IdResponse,
  NotificationsChannelsIdPayloadResponse,
  SecretResponse,
  NotificationsChannelsIdTestResponse,
  ChannelResponse,
  NotificationsPreferencesGetResponse,
  PushSubscriptionsDeleteResponse,
  PushSubscriptionsPostResponse,
  PushVapidPublicKeyResponse,
  UnsubscribeResponse,
} from './models'
import { errors, nullable, otherResponses } from '../lib/models'

/** The answers of an alert's link (/c/:token): besides `answers`, an invalid or removed link is a 404 page. */
const linkAnswers = (answers: Parameters<typeof otherResponses>[0]) =>
  otherResponses({ ...answers, 404: { description: 'the link is invalid or its match is gone (a page)', type: 'text/html' } })
import { oneOf } from '../lib/one-of'

const tags = ['notifications']

export const notifyRoutes = (deps: Deps) => {
  const contactLimiter = new RateLimiter(5, 10 * 60_000, () => deps.now().getTime())
  return (
    new Elysia({ name: 'notify' })
      .use(authPlugin(deps))
      .use(holdRoutes(deps)) // GET/PUT /api/notifications/hold: 'Wait before email and push'
      .get('/api/notifications/preferences', ({ user, access }) => prefsView(deps, user.id, access), {
        response: { 200: NotificationsPreferencesGetResponse, ...errors(401) },
        auth: true,
        detail: { summary: 'Notification preferences (defaults: email as the batched digest, push off), the digest interval and channel gates', tags },
      })
      .put('/api/notifications/preferences', ({ user, access, body }) => updatePrefs(deps, user.id, access, body), {
        response: { 200: NotificationsPreferencesGetResponse, ...errors(400, 401) },
        auth: true,
        body: t.Object({
          email_frequency: t.Optional(oneOf(EMAIL_FREQUENCIES)),
          web_push_enabled: t.Optional(t.Boolean()),
          claim_template: t.Optional(nullable(t.String({ maxLength: 2000 }))),
          quiet_hours: t.Optional(
            nullable(t.Object({ start: t.String({ maxLength: 5 }), end: t.String({ maxLength: 5 }), time_zone: t.String({ maxLength: 64 }) })),
          ),
        }),
        detail: {
          summary:
            'Change notification preferences (partial); quiet_hours {start, end: HH:MM, time_zone: IANA} or null; claim_template (with {title}, {price}, {link}, {author}) or null for the default',
          description: '400 INVALID_QUIET_HOURS (times), 400 INVALID_TIME_ZONE (a name Intl does not know), 400 INVALID_CLAIM_TEMPLATE (over 1000 characters).',
          tags,
        },
      })
      .get('/api/notifications/channels', ({ user, access }) => listEndpoints(deps, user.id, access), {
        response: { 200: NotificationsChannelsGetResponse, ...errors(401) },
        auth: true,
        detail: {
          summary:
            "The user's external channels with their last delivery result and control, the kinds this installation offers (label, setup, fields), and the plan gate",
          tags,
        },
      })
      .post(
        '/api/notifications/channels',
        async ({ user, access, body, set }) => {
          const made = await addEndpoint(deps, user.id, access, body as never)
          set.status = 201
          return made
        },
        {
          response: { 200: ChannelResponse, ...errors(400, 401) },
          auth: true,
          body: t.Object(
            {
              kind: oneOf(ENDPOINT_KINDS),

              name: t.Optional(t.String({ maxLength: 60 })),
              level: t.Optional(t.Union([t.Literal('all'), t.Literal('important')])),
              ratePerMinute: t.Optional(nullable(t.Integer({ minimum: 1, maximum: MAX_RATE_PER_MINUTE }))),
              // every provider's fields (the registry's): url, token, priority, tags, userKey, homeserver, roomId, accessToken, urls
              ...Object.fromEntries(
                [...new Set(PROVIDERS.flatMap((p) => p.fields.map((f) => f.name)))].map((n) => [
                  n,
                  t.Optional(t.Union([t.String({ maxLength: 4000 }), t.Number()])),
                ]),
              ),
            },
            { additionalProperties: false },
          ),
          detail: {
            summary:
              "Add a channel: kind webhook | ntfy | discord | telegram | pushover | gotify | matrix | slack | apprise with that kind's fields; a webhook answers its signing secret this once, Telegram its `linkCode` (send `/start <linkCode>` to the bot)",
            description:
              '400 INVALID_URL / INVALID_FIELD with `field` (https only, no credentials, no private/loopback hosts unless CHANNELS_ALLOW_PRIVATE), 400 KIND_UNAVAILABLE (the admin has not set the service up), 403 FEATURE_LOCKED, 409 CHANNEL_LIMIT.',
            tags,
          },
        },
      )
      .patch('/api/notifications/channels/:id', ({ user, params, body }) => updateEndpoint(deps, user.id, params.id, body), {
        response: { 200: ChannelResponse, ...errors(400, 401, 404) },
        auth: true,
        params: t.Object({ id: t.Integer({ minimum: 1 }) }),
        body: t.Object({
          name: t.Optional(t.String({ maxLength: 60 })),
          level: t.Optional(t.Union([t.Literal('all'), t.Literal('important')])),
          ratePerMinute: t.Optional(nullable(t.Integer({ minimum: 1, maximum: MAX_RATE_PER_MINUTE }))),
        }),
        detail: {
          summary: "A channel's name and control: level (all | important: price drops and important terms only), ratePerMinute (cap; null = none)",
          tags,
        },
      })
      .delete('/api/notifications/channels/:id', ({ user, params }) => removeEndpoint(deps, user.id, params.id), {
        response: { 200: IdResponse, ...errors(400, 401, 404) },
        auth: true,
        params: t.Object({ id: t.Integer({ minimum: 1 }) }),
        detail: { summary: 'Remove a channel', tags },
      })
      .post('/api/notifications/channels/:id/test', ({ user, access, params }) => testEndpoint(deps, user.id, access, params.id), {
        response: { 200: NotificationsChannelsIdTestResponse, ...errors(400, 401, 404) },
        auth: true,
        params: t.Object({ id: t.Integer({ minimum: 1 }) }),
        detail: { summary: "'Send test': one sample alert at once; answers {ok, result: 'delivered (200)' | 'failed (…)', channel}", tags },
      })
      .get('/api/notifications/channels/:id/payload', ({ user, params }) => endpointPayload(deps, user.id, params.id), {
        response: { 200: NotificationsChannelsIdPayloadResponse, ...errors(400, 401, 404) },
        auth: true,
        params: t.Object({ id: t.Integer({ minimum: 1 }) }),
        detail: { summary: "What Dibs sends: the channel's request for the sample alert (method, URL, headers, body), secrets masked", tags },
      })
      .post('/api/notifications/channels/:id/secret', ({ user, params }) => regenerateSecret(deps, user.id, params.id), {
        response: { 200: SecretResponse, ...errors(400, 401, 404) },
        auth: true,
        params: t.Object({ id: t.Integer({ minimum: 1 }) }),
        detail: { summary: "Regenerate a webhook's signing secret (answered this once)", tags },
      })
      .get('/api/push/vapid-public-key', () => ({ publicKey: deps.config.secrets.vapid.publicKey }), {
        response: { 200: PushVapidPublicKeyResponse },
        detail: { security: [], summary: 'VAPID application server key for PushManager.subscribe', tags },
      })
      .post(
        '/api/push/subscriptions',
        ({ user, body, request, set }) => {
          set.status = 201
          return saveSubscription(deps, user.id, body as never, request.headers.get('user-agent'))
        },
        {
          response: { 200: PushSubscriptionsPostResponse, ...errors(400, 401) },
          auth: true,
          body: t.Object({
            endpoint: t.String(),
            keys: t.Object({ p256dh: t.String(), auth: t.String() }),
            expirationTime: t.Optional(nullable(t.Number())),
          }),
          detail: { summary: "Save this device's push subscription", tags },
        },
      )
      .delete('/api/push/subscriptions', ({ user, body }) => deleteSubscription(deps, user.id, body.endpoint), {
        response: { 200: PushSubscriptionsDeleteResponse, ...errors(400, 401) },
        auth: true,
        body: t.Object({ endpoint: t.String() }),
        detail: { summary: "Remove this device's push subscription; returns how many remain", tags },
      })
      // The emailed link only checks the token: scanners and mail previews GET links too.
      .get('/api/unsubscribe', async ({ query, redirect }) => redirect(await unsubscribePageFor(deps, query.token), 302), {
        query: t.Object({ token: t.Optional(t.String()) }),
        detail: {
          security: [],
          summary:
            'Unsubscribe link from an alert email: changes nothing → /unsubscribe?token=… (the page whose button POSTs) or /unsubscribe?status=error&code=…',
          tags,
          responses: otherResponses({ 302: { description: 'to the /unsubscribe page', headers: ['location'] } }),
        },
      })
      // Acts: the page's 'Unsubscribe' button, and RFC 8058 one-click (the mail provider POSTs
      // "List-Unsubscribe=One-Click" to the header's URL, from its own origin: exempt in src/app.ts).
      .post(
        '/api/unsubscribe',
        async ({ query, set }) => {
          const result = await unsubscribe(deps, query.token)
          if (result.status === 'success') return { status: 'success' }
          set.status = result.code === 'TOKEN_INVALID' || result.code === 'MISSING_TOKEN' ? 400 : 500
          return { status: 'error', code: result.code }
        },
        {
          query: t.Object({ token: t.Optional(t.String()) }),
          response: { 200: UnsubscribeResponse, 400: UnsubscribeResponse, 500: UnsubscribeResponse },
          detail: { security: [], summary: "Turn alert emails off: the /unsubscribe page's button and RFC 8058 one-click", tags },
        },
      )
      // An alert's action links (./alert-links.ts): no session, signed token; GET records and redirects, POST marks read.
      .get(
        '/c/:token',
        async ({ params, request, set, redirect }) => {
          const purpose = request.headers.get('sec-purpose') ?? request.headers.get('purpose') ?? ''
          const r = await followAlertLink(deps, params.token, request.method === 'HEAD' || /prefetch/i.test(purpose))
          if (r.kind === 'redirect') return redirect(r.to, 303)
          if (r.kind === 'done') return new Response(null, { status: 204 })
          set.status = r.status
          set.headers['content-type'] = 'text/html; charset=utf-8'
          set.headers['cache-control'] = 'no-store'
          return r.html
        },
        {
          params: t.Object({ token: t.String({ maxLength: 600 }) }),
          detail: {
            security: [],
            summary:
              "An alert's Claim / Open link: records the first open or claim (time to claim) and redirects (303) to the claim target or the post; a Mark read link shows a page whose button POSTs",
            tags,
            responses: linkAnswers({
              303: { description: 'to the claim target or the post', headers: ['location'] },
              200: { description: 'the Mark read page', type: 'text/html' },
            }),
          },
        },
      )
      .post(
        '/c/:token',
        async ({ params, set }) => {
          const r = await postAlertLink(deps, params.token)
          if (r.kind === 'done') {
            set.status = 204
            return null
          }
          if (r.kind === 'page') {
            set.status = r.status
            set.headers['content-type'] = 'text/html; charset=utf-8'
            return r.html
          }
          return null
        },
        {
          params: t.Object({ token: t.String({ maxLength: 600 }) }),
          detail: {
            security: [],
            summary: "An alert's Mark read link (the service worker's button, the link page's button): 204",
            tags,
            responses: linkAnswers({ 204: { description: 'marked read' } }),
          },
        },
      )
      .post(
        '/api/contact',
        async ({ body, request, server, set }) => {
          const session = await validateSession(deps, readSessionToken(request.headers.get('cookie')))
          const key = session ? `user:${session.user.id}` : `ip:${clientIp(deps.config, server as ServerLike, request)}`
          const wait = contactLimiter.hit(key)
          if (wait > 0) throw tooMany('Too many messages. Please try again later.', wait)
          set.status = 201
          return submitContact(deps, { userId: session?.user.id ?? null, email: session?.user.email ?? null }, (body ?? {}) as never)
        },
        {
          response: { 201: IdResponse, ...errors(400, 429) },
          detail: { security: [{}, { session: [] }], summary: 'Contact form: stored and emailed to ADMIN_EMAILS (rate limited)', tags },
        },
      )
  )
}
