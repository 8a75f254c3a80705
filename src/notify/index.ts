// Notification routes: preferences, push subscriptions, VAPID key, unsubscribe, contact form.
// Services (prefs, push-subscriptions, unsubscribe, contact) never see Elysia's Context.
import { Elysia, t } from 'elysia'
import { authPlugin } from '../auth/plugin'
import { readSessionToken, validateSession } from '../auth/session'
import { clientIp, type ServerLike } from '../auth/sign-in'
import type { Deps } from '../deps'
import { tooMany } from '../lib/errors'
import { RateLimiter } from '../lib/rate-limit'
import { submitContact } from './contact'
import { prefsView, updatePrefs, EMAIL_FREQUENCIES } from './prefs'
import { deleteSubscription, saveSubscription } from './push-subscriptions'
import { unsubscribe, unsubscribePageFor } from './unsubscribe'

const tags = ['notifications']

export const notifyRoutes = (deps: Deps) => {
  const contactLimiter = new RateLimiter(5, 10 * 60_000, () => deps.now().getTime())
  return (
    new Elysia({ name: 'notify' })
      .use(authPlugin(deps))
      .get('/api/notifications/preferences', ({ user, access }) => prefsView(deps, user.id, access), {
        auth: true,
        detail: { summary: 'Notification preferences (defaults: email as the batched digest, push off), the digest interval and channel gates', tags },
      })
      .put('/api/notifications/preferences', ({ user, access, body }) => updatePrefs(deps, user.id, access, body), {
        auth: true,
        body: t.Object({
          email_frequency: t.Optional(t.Union(EMAIL_FREQUENCIES.map((f) => t.Literal(f)))),
          web_push_enabled: t.Optional(t.Boolean()),
        }),
        detail: { summary: 'Change notification preferences (partial)', tags },
      })
      .get('/api/push/vapid-public-key', () => ({ publicKey: deps.config.secrets.vapid.publicKey }), {
        detail: { summary: 'VAPID application server key for PushManager.subscribe', tags },
      })
      .post(
        '/api/push/subscriptions',
        ({ user, body, request, set }) => {
          set.status = 201
          return saveSubscription(deps, user.id, body as never, request.headers.get('user-agent'))
        },
        {
          auth: true,
          body: t.Object({
            endpoint: t.String(),
            keys: t.Object({ p256dh: t.String(), auth: t.String() }),
            expirationTime: t.Optional(t.Nullable(t.Number())),
          }),
          detail: { summary: "Save this device's push subscription", tags },
        },
      )
      .delete('/api/push/subscriptions', ({ user, body }) => deleteSubscription(deps, user.id, body.endpoint), {
        auth: true,
        body: t.Object({ endpoint: t.String() }),
        detail: { summary: "Remove this device's push subscription; returns how many remain", tags },
      })
      // The emailed link only checks the token: scanners and mail previews GET links too.
      .get('/api/unsubscribe', ({ query, redirect }) => redirect(unsubscribePageFor(deps, query.token), 302), {
        query: t.Object({ token: t.Optional(t.String()) }),
        detail: {
          summary:
            'Unsubscribe link from an alert email: changes nothing → /unsubscribe?token=… (the page whose button POSTs) or /unsubscribe?status=error&code=…',
          tags,
        },
      })
      // Acts: the page's 'Unsubscribe' button, and RFC 8058 one-click (the mail provider POSTs
      // "List-Unsubscribe=One-Click" to the header's URL, from its own origin: exempt in src/app.ts).
      .post(
        '/api/unsubscribe',
        ({ query, set }) => {
          const result = unsubscribe(deps, query.token)
          if (result.status === 'success') return { status: 'success' }
          set.status = result.code === 'TOKEN_INVALID' || result.code === 'MISSING_TOKEN' ? 400 : 500
          return { status: 'error', code: result.code }
        },
        {
          query: t.Object({ token: t.Optional(t.String()) }),
          detail: { summary: "Turn alert emails off: the /unsubscribe page's button and RFC 8058 one-click", tags },
        },
      )
      .post(
        '/api/contact',
        ({ body, request, server, set }) => {
          const session = validateSession(deps, readSessionToken(request.headers.get('cookie')))
          const key = session ? `user:${session.user.id}` : `ip:${clientIp(deps.config, server as ServerLike, request)}`
          const wait = contactLimiter.hit(key)
          if (wait > 0) throw tooMany('Too many messages. Please try again later.', wait)
          set.status = 201
          return submitContact(deps, { userId: session?.user.id ?? null, email: session?.user.email ?? null }, (body ?? {}) as never)
        },
        {
          detail: { summary: 'Contact form: stored and emailed to ADMIN_EMAILS (rate limited)', tags },
        },
      )
  )
}
