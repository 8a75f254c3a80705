// Admin → Logs, the Sources panel's fetching and state (issue 25 §1): the list of both forums' sources with their
// health, the per-source actions (enable/disable, edit, remove, 'Fetch now', rotate a push source's secret), the
// add/edit form with its preset picker and its 'Fetch now' before saving, and the feed politeness interval. The
// cards (./SourcesCard.tsx, ./SourceForm.tsx, ./SourcePosts.tsx) only render. Server end:
// src/admin/logs/sources-routes.ts.
import { useEffect, useState } from 'react'
import { api, ApiError, call, type Answer } from '../../../client'
import { errorText, usePolling } from '../../../admin'
import { errorToast, toast } from '../../../toast'
import type { PollOutcome, Preview } from '../../../../src/scanner/feeds'
import type { Preset } from '../../../../src/sources/presets'
import type { SourceView } from '../../../../src/sources/view'

export type { SourceView }
export type SourceForum = SourceView['forum']
export type SourceKind = SourceView['kind']
/** GET /api/admin/sources: the sources, the politeness interval, the presets and pairs, the forum pair in force. */
export type SourcesList = Answer<typeof api.admin.sources.get>

export const FORUM_LABEL: Record<SourceForum, string> = { accessories: 'Accessories forum (WTS / WTB)', deals: 'Deals forum' }
export const KIND_LABEL: Record<SourceKind, string> = { reddit: 'Reddit', feed: 'Feed', push: 'Push' }

/** The forum software a preview recognised, as its makers write it ('xenforo' → 'XenForo'); unknown names as given. */
const SOFTWARE: Record<string, string> = { xenforo: 'XenForo', phpbb: 'phpBB', vbulletin: 'vBulletin', discourse: 'Discourse', reddit: 'Reddit' }
export const softwareName = (name: string) => SOFTWARE[name] ?? name

/** What the add and edit forms hold, as typed. */
export type SourceDraft = { forum: SourceForum; kind: SourceKind; preset: string; url: string; subreddits: string; name: string }
export const EMPTY_DRAFT: SourceDraft = { forum: 'accessories', kind: 'feed', preset: '', url: '', subreddits: '', name: '' }

/** The field that holds a kind's address (a push source has none). */
export const ADDRESS_FIELD: Record<SourceKind, 'url' | 'subreddits' | null> = { feed: 'url', reddit: 'subreddits', push: null }

/** A form's error: its words, and the field it belongs to when the server named one (400 INVALID_SOURCE). */
export type FormError = { field: string | null; message: string }

/** The presets that fit a forum and a kind (a push source has none). */
export const presetsFor = (presets: Preset[], forum: SourceForum, kind: SourceKind): Preset[] => presets.filter((p) => p.forum === forum && p.kind === kind)

/** Choosing a preset fills the address and the name; choosing none keeps what was typed. */
export function applyPreset(draft: SourceDraft, preset: Preset | null): SourceDraft {
  if (!preset) return { ...draft, preset: '' }
  return {
    ...draft,
    preset: preset.name,
    forum: preset.forum,
    kind: preset.kind,
    name: preset.label,
    ...(preset.kind === 'reddit' ? { subreddits: preset.subreddit } : { url: preset.urlPattern }),
  }
}

/** A draft as the API reads it: only the address its kind has; an empty name lets the server choose. */
export function draftBody(d: SourceDraft) {
  return {
    forum: d.forum,
    kind: d.kind,
    preset: d.preset || null,
    ...(d.name.trim() ? { name: d.name.trim() } : {}),
    ...(d.kind === 'feed' ? { url: d.url.trim() } : {}),
    ...(d.kind === 'reddit' ? { subreddits: d.subreddits } : {}),
  }
}

/** A saved source as the edit form starts. */
export const draftOf = (s: SourceView): SourceDraft => ({
  forum: s.forum,
  kind: s.kind,
  preset: s.preset ?? '',
  url: s.url ?? '',
  subreddits: s.subreddits.join(', '),
  name: s.name,
})

/** The API's error in words, with its field: a 400 INVALID_SOURCE carries `field` (also read from `details.field`). */
export function formError(err: unknown): FormError {
  if (!(err instanceof ApiError)) return { field: null, message: errorText(err) }
  const e = (err.body as { error?: { field?: unknown; details?: { field?: unknown } } } | null)?.error
  const field = typeof e?.field === 'string' ? e.field : typeof e?.details?.field === 'string' ? e.details.field : null
  return { field, message: err.message }
}

/** Where a source reads: its feed URL, its subreddits, or where its posts are pushed. */
export function addressText(s: Pick<SourceView, 'kind' | 'url' | 'subreddits' | 'ingestUrl'>): string {
  if (s.kind === 'reddit') return s.subreddits.map((r) => `r/${r}`).join(', ')
  if (s.kind === 'feed') return s.url ?? '—'
  return s.ingestUrl ? `POST ${s.ingestUrl}` : '—'
}

/** A 'Fetch now' of a saved source in words. */
export function outcomeText(o: PollOutcome, kind: SourceKind): string {
  const posts = (n: number) => (n === 1 ? '1 post' : `${n} posts`)
  switch (o.status) {
    case 'waiting':
      return `Not fetched: the host was asked less than the politeness interval ago. Next try ${o.retryAt ? new Date(o.retryAt).toLocaleTimeString() : 'shortly'}.`
    case 'failed':
      return `Fetch failed: ${o.error ?? 'unknown error'}`
    case 'not_modified':
      return 'Nothing new: the feed has not changed since the last read.'
    case 'ok':
      return kind === 'reddit'
        ? `Read ${posts(o.fetched)}; the next scan stores and matches the new ones.`
        : `Read ${posts(o.fetched)}: ${o.new} new stored, ${o.matches === 1 ? '1 match' : `${o.matches} matches`}.`
  }
}

/** The list, reloaded every 30 s and after every change. */
export function useSources() {
  return usePolling(() => call(api.admin.sources.get()), 30_000)
}

type Result = { source: SourceView; text: string; ok: boolean; posts: PollOutcome['posts'] | null }

/** One saved source's actions; `busy` names the one in flight, `result` is the last 'Fetch now', `secret` a new secret (shown once). */
export function useSourceActions(source: SourceView, reload: () => void) {
  const [busy, setBusy] = useState<'enable' | 'fetch' | 'remove' | 'rotate' | null>(null)
  const [result, setResult] = useState<Result | null>(null)
  const [secret, setSecret] = useState<string | null>(null)
  const run = async (what: NonNullable<typeof busy>, fn: () => Promise<void>) => {
    setBusy(what)
    try {
      await fn()
    } finally {
      setBusy(null)
    }
  }
  const setEnabled = (enabled: boolean) =>
    run('enable', async () => {
      try {
        await call(api.admin.sources({ id: source.id }).patch({ enabled }))
        toast({ title: enabled ? 'Source enabled' : 'Source disabled', description: `${source.name} ${enabled ? 'is read again' : 'is no longer read'}.` })
      } catch (err) {
        errorToast(errorText(err), 'Source not changed')
      }
      reload()
    })
  const fetchNow = () =>
    run('fetch', async () => {
      try {
        const o = await call(api.admin.sources({ id: source.id }).fetch.post({}))
        setResult({ source, ok: o.status === 'ok' || o.status === 'not_modified', text: outcomeText(o, source.kind), posts: o.posts })
      } catch (err) {
        // 429: the host was asked within its politeness interval (or Reddit's budget is spent): not a failure
        const waiting = err instanceof ApiError && err.status === 429
        setResult({ source, ok: false, text: `${waiting ? 'Not fetched' : 'Fetch failed'}: ${errorText(err)}`, posts: null })
      }
      reload()
    })
  const remove = () =>
    run('remove', async () => {
      try {
        const r = await call(api.admin.sources({ id: source.id }).delete())
        toast({ title: 'Source removed', description: `${r.name} is no longer read; the posts it brought stay.` })
      } catch (err) {
        errorToast(errorText(err), 'Source not removed')
      }
      reload()
    })
  const rotate = () =>
    run('rotate', async () => {
      try {
        const r = await call(api.admin.sources({ id: source.id })['rotate-secret'].post({}))
        setSecret(r.secret)
      } catch (err) {
        errorToast(errorText(err), 'Secret not rotated')
      }
    })
  return { busy, result, secret, setEnabled, fetchNow, remove, rotate }
}

/**
 * The add form (`editing` null) or a source's edit form: the draft, 'Fetch now' before saving (nothing is stored), and
 * Save. After adding a push source, `onAdded` gets its secret, to show once.
 */
export function useSourceForm(editing: SourceView | null, onSaved: () => void, onAdded?: (added: { source: SourceView; secret: string }) => void) {
  const [draft, setDraft] = useState<SourceDraft>(editing ? draftOf(editing) : EMPTY_DRAFT)
  const [error, setError] = useState<FormError | null>(null)
  const [busy, setBusy] = useState<'preview' | 'save' | null>(null)
  const [preview, setPreview] = useState<Preview | null>(null)
  useEffect(() => setPreview(null), [draft.kind, draft.url, draft.subreddits, draft.forum])
  const change = (patch: Partial<SourceDraft>) => {
    setDraft((d) => {
      const next = { ...d, ...patch }
      // a preset belongs to one forum and one kind: switching either drops it
      if ((patch.forum && patch.forum !== d.forum) || (patch.kind && patch.kind !== d.kind)) next.preset = ''
      return next
    })
    setError((e) => (e && e.field !== null && e.field in patch ? null : e))
  }
  const fetchPreview = async () => {
    setBusy('preview')
    setError(null)
    setPreview(null)
    try {
      setPreview(await call(api.admin.sources.preview.post(draftBody(draft))))
    } catch (err) {
      // a fetch that failed (blocked, not a feed, asked too soon) is about the address
      const e = formError(err)
      setError(e.field === null && ADDRESS_FIELD[draft.kind] ? { ...e, field: ADDRESS_FIELD[draft.kind] } : e)
    } finally {
      setBusy(null)
    }
  }
  const save = async (e?: React.FormEvent) => {
    e?.preventDefault()
    setBusy('save')
    setError(null)
    try {
      if (editing) {
        const s = await call(api.admin.sources({ id: editing.id }).patch(draftBody(draft)))
        toast({ title: 'Source saved', description: `${s.name}: applied now, no restart needed.` })
      } else {
        const r = await call(api.admin.sources.post(draftBody(draft)))
        const stored = r.ingested
          ? ` ${r.ingested.new === 1 ? '1 post' : `${r.ingested.new} posts`} from 'Fetch now' stored, ${r.ingested.matches === 1 ? '1 match' : `${r.ingested.matches} matches`}.`
          : ''
        toast({ title: 'Source added', description: `${r.source.name}: applied now, no restart needed.${stored}` })
        if (r.secret) onAdded?.({ source: r.source, secret: r.secret })
        setDraft(EMPTY_DRAFT)
        setPreview(null)
      }
      onSaved()
    } catch (err) {
      setError(formError(err))
    } finally {
      setBusy(null)
    }
  }
  return { draft, change, setDraft, error, busy, preview, fetchPreview, save }
}

type Switched = Answer<(typeof api.admin)['forum-preset']['put']>

/** What a switch of the forum pair did, in words. */
export function switchedText(r: Switched): string {
  const parts = [
    r.added.length ? `added ${r.added.join(', ')}` : '',
    r.enabled.length ? `enabled ${r.enabled.join(', ')}` : '',
    r.disabled.length ? `disabled ${r.disabled.join(', ')}` : '',
  ].filter(Boolean)
  return `${parts.length ? `${parts.join('; ')}. ` : ''}The forum names in every page follow after a reload.`
}

/** The forum pair's form: both forums switch to a ready pair of presets. */
export function usePairForm(current: string | null, reload: () => void) {
  const [value, setValue] = useState('')
  const [error, setError] = useState<string | null>(null)
  const [saving, setSaving] = useState(false)
  useEffect(() => {
    if (current !== null) setValue(current)
  }, [current])
  const submit = async (e: React.FormEvent) => {
    e.preventDefault()
    setSaving(true)
    setError(null)
    try {
      const r = await call(api.admin['forum-preset'].put({ pair: value }))
      toast({ title: 'Forums switched', description: switchedText(r) })
      reload()
    } catch (err) {
      setError(errorText(err))
    } finally {
      setSaving(false)
    }
  }
  return { value, setValue, error, saving, submit }
}

/** The feed politeness interval's form. */
export function usePolitenessForm(current: number | null, reload: () => void) {
  const [value, setValue] = useState('')
  const [error, setError] = useState<string | null>(null)
  const [saving, setSaving] = useState(false)
  useEffect(() => {
    if (current !== null) setValue(String(current))
  }, [current])
  const submit = async (e: React.FormEvent) => {
    e.preventDefault()
    setSaving(true)
    setError(null)
    try {
      const r = await call(api.admin.sources.settings.put({ politenessSeconds: Number(value) }))
      toast({ title: 'Politeness interval saved', description: `At most one request per host every ${r.politenessSeconds} s.` })
      reload()
    } catch (err) {
      setError(errorText(err))
    } finally {
      setSaving(false)
    }
  }
  return { value, setValue, error, saving, submit }
}
