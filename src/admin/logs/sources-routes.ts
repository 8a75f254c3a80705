// /api/admin/sources — the Logs page's Sources panel (issue 25): where each forum's posts come from. List with
// health, preview ('Fetch now' before saving), add, edit, enable/disable, remove, 'Fetch now' on a saved source,
// rotate a push source's secret, the feed politeness interval. Every change is audited and applies without a
// restart (src/scanner/source-admin.ts).
import { Elysia, t } from 'elysia'
import { audited } from '../../audit/log'
import { authPlugin } from '../../auth/plugin'
import { addSource, checkedInput, editSource, removeSource, rotateSourceSecret, switchForumPreset } from '../../scanner/source-admin'
import { MIN_FEED_INTERVAL_MS } from '../../sources/politeness'
import { PRESETS } from '../../sources/presets'
import { listSources } from '../../sources/store'
import { sourceView } from '../../sources/view'
import type { AdminDeps } from '../shared/deps'
import {
  AdminForumPresetResponse,
  AdminSourcesGetResponse,
  AdminSourcesIdDeleteResponse,
  AdminSourcesIdFetchResponse,
  AdminSourcesIdPatchResponse,
  AdminSourcesPostResponse,
  AdminSourcesPreviewResponse,
  AdminSourcesSettingsResponse,
} from '../models'
import { SecretResponse } from '../../notify/models'
import { errors } from '../../lib/models'

const tags = ['admin']

// forum and kind are read by readSourceInput (src/sources/store.ts), so a bad one is a 400 INVALID_SOURCE naming the field like every other.
const SourceBody = t.Object({
  forum: t.Optional(t.String({ maxLength: 40 })),
  kind: t.Optional(t.String({ maxLength: 40 })),
  name: t.Optional(t.String({ maxLength: 200 })),
  url: t.Optional(t.Union([t.Null(), t.String({ maxLength: 4096 })])),
  subreddits: t.Optional(t.Union([t.String({ maxLength: 400 }), t.Array(t.String({ maxLength: 60 }), { maxItems: 20 })])),
  preset: t.Optional(t.Union([t.Null(), t.String({ maxLength: 60 })])),
  enabled: t.Optional(t.Boolean()),
})
const Id = t.Object({ id: t.Integer({ minimum: 1 }) })

export const sourcesRoutes = (deps: AdminDeps) =>
  new Elysia({ name: 'admin-sources' })
    .use(authPlugin(deps))
    .get(
      '/api/admin/sources',
      async () => ({
        sources: (await listSources(deps)).map((s) => sourceView(deps, s)),
        politenessSeconds: await deps.feeds.politenessSeconds(),
        minPolitenessSeconds: MIN_FEED_INTERVAL_MS / 1000,
        presets: PRESETS.presets,
        pairs: PRESETS.pairs,
        /** the pair in force (FORUM_PRESET, or an admin's switch); 'spec' by default */
        forumPreset: deps.config.forumPreset?.pair.name ?? 'spec',
      }),
      {
        response: { 200: AdminSourcesGetResponse, ...errors(401, 403) },
        admin: true,
        detail: {
          summary: "Sources of both forums with their health (never a push source's secret), the feed politeness interval, and the presets",
          tags,
        },
      },
    )
    .post('/api/admin/sources/preview', async ({ body }) => deps.feeds.preview(await checkedInput(deps, body, null)), {
      response: { 200: AdminSourcesPreviewResponse, ...errors(400, 401, 403) },
      admin: true,
      body: SourceBody,
      detail: {
        summary: "'Fetch now' before saving: one fetch of the source as given, its parsed posts and how each was classified; nothing is stored",
        description:
          '400 names the bad field (INVALID_SOURCE) or a push source (nothing to fetch); 429 when the host was asked within its politeness interval or Reddit’s budget is spent; 502 with the reason when the fetch failed (blocked, gone, not a feed …).',
        tags,
      },
    })
    .post(
      '/api/admin/sources',
      ({ user, body }) =>
        audited(
          deps,
          { actor: user, action: 'source.add', details: { kind: body.kind ?? null, forum: body.forum ?? null, preset: body.preset ?? null } },
          () => addSource(deps, body, deps.feeds),
          (r) => ({ id: r.source.id, name: r.source.name, url: r.source.url, subreddits: r.source.subreddits.join(',') }),
        ),
      {
        response: { 200: AdminSourcesPostResponse, ...errors(400, 401, 403) },
        admin: true,
        body: SourceBody,
        detail: {
          summary:
            "Add a source: {source, secret, ingested}. A push source's secret comes back this once. The posts a 'Fetch now' of the same address showed in the last 10 minutes are stored and matched at once (ingested)",
          tags,
        },
      },
    )
    .patch(
      '/api/admin/sources/:id',
      ({ user, params, body }) =>
        audited(deps, { actor: user, action: 'source.edit', target: `source:${params.id}`, details: { ...body } }, () =>
          editSource(deps, params.id, body, deps.feeds),
        ),
      {
        response: { 200: AdminSourcesIdPatchResponse, ...errors(400, 401, 403, 404) },
        admin: true,
        params: Id,
        body: SourceBody,
        detail: { summary: 'Edit a source (name, address, forum, preset) or enable/disable it ({enabled}); the kind cannot change', tags },
      },
    )
    .delete(
      '/api/admin/sources/:id',
      ({ user, params }) =>
        audited(
          deps,
          { actor: user, action: 'source.remove', target: `source:${params.id}` },
          async () => {
            const s = await removeSource(deps, params.id, deps.feeds)
            return { ok: true as const, name: s.name }
          },
          (r) => ({ name: r.name }),
        ),
      {
        response: { 200: AdminSourcesIdDeleteResponse, ...errors(400, 401, 403, 404) },
        admin: true,
        params: Id,
        detail: { summary: 'Remove a source; the posts it brought stay', tags },
      },
    )
    .post(
      '/api/admin/sources/:id/fetch',
      ({ user, params }) =>
        audited(
          deps,
          { actor: user, action: 'source.fetch', target: `source:${params.id}` },
          () => deps.feeds.fetchNow(params.id),
          (o) => ({ status: o.status, fetched: o.fetched, new: o.new }),
        ),
      {
        response: { 200: AdminSourcesIdFetchResponse, ...errors(400, 401, 403, 404) },
        admin: true,
        params: Id,
        detail: {
          summary:
            "'Fetch now' on a saved source: a feed is polled at once (new posts stored and matched); a reddit source's newest posts are shown (the next scan stores them). The parsed posts with their classification",
          description:
            "429 SOURCE_FETCH_FAILED (with Retry-After) when the feed's host was asked within its politeness interval or asked to wait; 400 for a push source (nothing to fetch); 404 no such source. A feed that fails answers 200 {status: 'failed', error} and the source's health says why.",
          tags,
        },
      },
    )
    .post(
      '/api/admin/sources/:id/rotate-secret',
      ({ user, params }) =>
        audited(deps, { actor: user, action: 'source.rotate_secret', target: `source:${params.id}` }, () => rotateSourceSecret(deps, params.id)),
      {
        response: { 200: SecretResponse, ...errors(400, 401, 403, 404) },
        admin: true,
        params: Id,
        detail: { summary: 'A new secret for a push source, shown this once; the old one stops working at once', tags },
      },
    )
    .put(
      '/api/admin/forum-preset',
      ({ user, body }) =>
        audited(
          deps,
          { actor: user, action: 'source.switch_pair', target: body.pair },
          () => switchForumPreset(deps, body.pair, deps.feeds),
          (r) => ({ ...r }),
        ),
      {
        response: { 200: AdminForumPresetResponse, ...errors(400, 401, 403) },
        admin: true,
        body: t.Object({ pair: t.String({ minLength: 1, maxLength: 60 }) }),
        detail: {
          summary:
            "Switch both forums to a ready pair (e.g. 'hardware'): its two sources enabled (added when missing), the forums' other sources disabled, and the forum names and labels in every text follow, without a restart. {pair, enabled, added, disabled}",
          tags,
        },
      },
    )
    .put(
      '/api/admin/sources/settings',
      ({ user, body }) =>
        audited(deps, { actor: user, action: 'source.settings', details: { ...body } }, async () => ({
          politenessSeconds: await deps.feeds.setPolitenessSeconds(body.politenessSeconds),
        })),
      {
        response: { 200: AdminSourcesSettingsResponse, ...errors(400, 401, 403) },
        admin: true,
        body: t.Object({ politenessSeconds: t.Integer({ minimum: MIN_FEED_INTERVAL_MS / 1000, maximum: 86_400 }) }),
        detail: { summary: 'The least seconds between two feed requests to one host (default 60, never below 15)', tags },
      },
    )
