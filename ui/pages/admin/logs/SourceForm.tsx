// The Sources panel's form, to add a source or edit one: forum, kind (fixed once saved), a preset that fills the
// fields, the feed URL or the subreddits, a name; 'Fetch now' reads the source once and shows its posts and how each
// was classified before anything is saved. An error the server pins on a field shows under that field. State:
// ./useSources.ts.
import type { ReactNode } from 'react'
import { SourcePosts } from './SourcePosts'
import {
  ADDRESS_FIELD,
  FORUM_LABEL,
  KIND_LABEL,
  presetsFor,
  softwareName,
  applyPreset,
  useSourceForm,
  type FormError,
  type SourceKind,
  type SourcesList,
  type SourceView,
} from './useSources'

const URL_PLACEHOLDER = 'https://forum.example/forums/classifieds.12/index.rss'

/** What a control needs to be named by its label and described by its help, or by its error when it has one. */
type ControlProps = { id: string; 'aria-invalid'?: true; 'aria-describedby'?: string }

/**
 * A labelled field: the label names the control alone (its help and its error sit below it, outside the label, and
 * describe it), and an error the server pinned on this field shows under it.
 */
function Field({
  at,
  field,
  label,
  help,
  error,
  children,
}: {
  at: string
  field: string
  label: string
  help?: ReactNode
  error: FormError | null
  children: (control: ControlProps) => ReactNode
}) {
  const id = `${at}-${field}`
  const mine = error?.field === field ? error : null
  const describedBy = [mine ? `${id}-error` : null, help ? `${id}-help` : null].filter(Boolean).join(' ')
  return (
    <div className="source-field">
      <label htmlFor={id}>{label}</label>
      {children({ id, ...(mine ? { 'aria-invalid': true as const } : {}), ...(describedBy ? { 'aria-describedby': describedBy } : {}) })}
      {mine ? (
        <small id={`${id}-error`} className="term-error" role="alert">
          {mine.message}
        </small>
      ) : null}
      {help ? <small id={`${id}-help`}>{help}</small> : null}
    </div>
  )
}

export function SourceForm({
  list,
  editing,
  onSaved,
  onCancel,
  onAdded,
}: {
  list: SourcesList
  /** the source being edited; null: the add form */
  editing: SourceView | null
  onSaved: () => void
  onCancel?: () => void
  /** a push source was added: its secret, shown once */
  onAdded?: (added: { source: SourceView; secret: string }) => void
}) {
  const f = useSourceForm(editing, onSaved, onAdded)
  const { draft } = f
  const at = editing ? `source-${editing.id}` : 'source-new'
  const err = f.error
  const presets = presetsFor(list.presets, draft.forum, draft.kind)
  const preset = presets.find((p) => p.name === draft.preset) ?? null
  const title = editing ? `Edit ${editing.name}` : 'Add source'
  const Heading = editing ? 'h5' : 'h3' // under the source's own h4, or the panel's h2
  // the fields shown, which an error can sit under; any other error shows under the buttons
  const fields = ['forum', 'kind', 'name', ...(draft.kind === 'push' ? [] : ['preset']), ...(ADDRESS_FIELD[draft.kind] ? [ADDRESS_FIELD[draft.kind]!] : [])]
  return (
    <form onSubmit={f.save} noValidate aria-labelledby={`${at}-title`} className="source-form" data-testid={editing ? 'edit-source-form' : 'add-source-form'}>
      <Heading id={`${at}-title`}>{title}</Heading>
      <div className="grid">
        <Field at={at} field="forum" label="Forum" error={err}>
          {(c) => (
            <select {...c} value={draft.forum} onChange={(e) => f.change({ forum: e.currentTarget.value as SourceView['forum'] })}>
              {(['accessories', 'deals'] as const).map((v) => (
                <option key={v} value={v}>
                  {FORUM_LABEL[v]}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field at={at} field="kind" label="Kind" error={err} help={editing ? 'A source’s kind cannot change: remove it and add a new one.' : undefined}>
          {(c) => (
            <select {...c} value={draft.kind} disabled={editing !== null} onChange={(e) => f.change({ kind: e.currentTarget.value as SourceKind })}>
              {(['reddit', 'feed', 'push'] as const).map((v) => (
                <option key={v} value={v}>
                  {KIND_LABEL[v]}
                </option>
              ))}
            </select>
          )}
        </Field>
      </div>
      {draft.kind !== 'push' ? (
        <Field at={at} field="preset" label="Preset" error={err} help={preset?.notes || 'A preset fills the address and the name for a market Dibs knows.'}>
          {(c) => (
            <select {...c} value={draft.preset} onChange={(e) => f.setDraft(applyPreset(draft, presets.find((p) => p.name === e.currentTarget.value) ?? null))}>
              <option value="">None</option>
              {presets.map((p) => (
                <option key={p.name} value={p.name}>
                  {p.title}
                </option>
              ))}
            </select>
          )}
        </Field>
      ) : null}
      {draft.kind === 'feed' ? (
        <Field at={at} field="url" label="Feed URL" error={err} help="RSS, Atom or JSON Feed: a forum section’s feed, a deal site’s feed.">
          {(c) => (
            <input
              {...c}
              type="url"
              inputMode="url"
              autoComplete="off"
              placeholder={URL_PLACEHOLDER}
              value={draft.url}
              onChange={(e) => f.change({ url: e.currentTarget.value })}
            />
          )}
        </Field>
      ) : null}
      {draft.kind === 'reddit' ? (
        <Field at={at} field="subreddits" label="Subreddits" error={err} help="One or more, separated by commas: mechmarket, hardwareswap.">
          {(c) => (
            <input
              {...c}
              autoComplete="off"
              placeholder="mechmarket"
              value={draft.subreddits}
              onChange={(e) => f.change({ subreddits: e.currentTarget.value })}
            />
          )}
        </Field>
      ) : null}
      {draft.kind === 'push' ? (
        <p className="muted small-text">
          A push source has nothing to fetch: a script, a browser extension or a moderator’s app sends its posts to Dibs, signed with the source’s secret. The
          address and the secret show once it is saved.
        </p>
      ) : null}
      <Field
        at={at}
        field="name"
        label="Name (optional)"
        error={err}
        help="Shown on match cards and in the live feed. Empty: the preset’s name, the subreddits or the feed’s host."
      >
        {(c) => <input {...c} maxLength={60} autoComplete="off" value={draft.name} onChange={(e) => f.change({ name: e.currentTarget.value })} />}
      </Field>
      {err && !fields.includes(err.field ?? '') ? (
        <p role="alert" className="inline-error">
          {err.message}
        </p>
      ) : null}
      <div className="button-row">
        {draft.kind !== 'push' ? (
          <button type="button" className="outline" onClick={f.fetchPreview} aria-busy={f.busy === 'preview'} disabled={f.busy !== null}>
            Fetch now
          </button>
        ) : null}
        <button type="submit" aria-busy={f.busy === 'save'} disabled={f.busy !== null}>
          Save
        </button>
        {onCancel ? (
          <button type="button" className="secondary outline" onClick={onCancel}>
            Cancel
          </button>
        ) : null}
      </div>
      {f.preview ? (
        <section aria-label="Fetched posts" className="source-preview" data-testid="source-preview">
          <p role="status">
            Read {f.preview.fetched === 1 ? '1 post' : `${f.preview.fetched} posts`}
            {f.preview.title ? ` from ${f.preview.title}` : ''}
            {f.preview.software ? ` (${softwareName(f.preview.software)})` : ''}. Nothing is stored until you save
            {editing ? '' : '; saving stores and matches these posts at once'}.
          </p>
          {f.preview.notes.length > 0 ? (
            <ul className="muted small-text">
              {f.preview.notes.map((n) => (
                <li key={n}>{n}</li>
              ))}
            </ul>
          ) : null}
          <SourcePosts posts={f.preview.posts} label={`Posts read from ${draft.name || 'the new source'}`} />
        </section>
      ) : null}
    </form>
  )
}
