// Admin → Logs, the Sources panel (issue 25 §1): where each forum's posts come from. Per source its kind, name,
// address, preset, an Enabled switch and its health in words (last read, failures), and Edit, Remove (asked first),
// 'Fetch now' (the posts read and how each was classified) and, for a push source, its ingest URL and 'Rotate
// secret'. Below: the Add source form and the feed politeness interval. Every change applies without a restart.
// State and actions: ./useSources.ts.
import { useState } from 'react'
import { formatWhen } from '../../../admin'
import { ConfirmDialog } from '../../../components/ConfirmDialog'
import { CopyButton } from '../../../components/CopyButton'
import { SourceForm } from './SourceForm'
import { SourcePosts } from './SourcePosts'
import {
  addressText,
  FORUM_LABEL,
  KIND_LABEL,
  usePairForm,
  usePolitenessForm,
  useSourceActions,
  useSources,
  type SourcesList,
  type SourceView,
} from './useSources'

const TONE: Record<SourceView['health']['state'], string> = { ok: 'ok', push: 'ok', new: 'warning', failing: 'danger', disabled: 'muted' }

/** A secret shown this once, with its copy button, and where the posts go. */
function SecretOnce({ name, secret, ingestUrl, onDone }: { name: string; secret: string; ingestUrl: string | null; onDone: () => void }) {
  return (
    <div className="source-secret" data-testid="source-secret">
      <p>
        <strong>Secret of {name}:</strong> <code>{secret}</code> <CopyButton text={secret} label="Copy secret" />
      </p>
      <p className="text-danger">Copy it now: it will not be shown again. Rotate the secret if it is lost.</p>
      {ingestUrl ? (
        <p>
          Ingest URL (POST, signed with the secret in X-Dibs-Signature): <code>{ingestUrl}</code> <CopyButton text={ingestUrl} label="Copy URL" />
        </p>
      ) : null}
      <button type="button" className="secondary outline small" onClick={onDone}>
        Done, I copied it
      </button>
    </div>
  )
}

function SourceItem({ source, list, reload }: { source: SourceView; list: SourcesList; reload: () => void }) {
  const a = useSourceActions(source, reload)
  const [editing, setEditing] = useState(false)
  const [asking, setAsking] = useState(false)
  const [secretShown, setSecretShown] = useState(true)
  const h = source.health
  const at = `source-${source.id}`
  return (
    <li className="source-item" data-testid="source-item">
      <div className="source-head">
        <h4 id={`${at}-name`}>{source.name}</h4>
        <span className="badge kind-badge">{KIND_LABEL[source.kind]}</span>
        <span className={`badge status-badge tone-${TONE[h.state]}`}>{h.state}</span>
        <label className="source-switch">
          <input
            type="checkbox"
            role="switch"
            checked={source.enabled}
            disabled={a.busy === 'enable'}
            aria-label={`Enabled: ${source.name}`}
            onChange={(e) => a.setEnabled(e.currentTarget.checked)}
          />
          Enabled
        </label>
      </div>
      <dl className="stat-list source-stats">
        <dt>{source.kind === 'reddit' ? 'Subreddits' : source.kind === 'feed' ? 'Feed URL' : 'Ingest URL'}</dt>
        <dd className="source-address">{addressText(source)}</dd>
        <dt>Preset</dt>
        <dd>{source.presetTitle ?? 'None'}</dd>
        <dt>Health</dt>
        <dd data-testid="source-health-summary" className={h.state === 'failing' ? 'text-danger' : undefined}>
          {h.summary}
        </dd>
        <dt>Last read</dt>
        <dd>
          {formatWhen(h.lastPolledAt)}
          {h.lastOkAt && h.lastOkAt !== h.lastPolledAt ? ` · last success ${formatWhen(h.lastOkAt)}` : ''}
        </dd>
        <dt>Failures in a row</dt>
        <dd>{h.failures}</dd>
      </dl>
      <div className="button-row">
        <button type="button" className="outline" onClick={() => setEditing((v) => !v)} aria-expanded={editing}>
          Edit
        </button>
        {source.kind !== 'push' ? (
          <button type="button" className="outline" onClick={a.fetchNow} aria-busy={a.busy === 'fetch'} disabled={a.busy !== null}>
            Fetch now
          </button>
        ) : (
          <button
            type="button"
            className="outline"
            onClick={() => (setSecretShown(true), void a.rotate())}
            aria-busy={a.busy === 'rotate'}
            disabled={a.busy !== null}
          >
            Rotate secret
          </button>
        )}
        <button type="button" className="outline secondary" onClick={() => setAsking(true)} disabled={a.busy !== null} aria-label={`Remove ${source.name}`}>
          Remove
        </button>
      </div>
      {a.secret && secretShown ? <SecretOnce name={source.name} secret={a.secret} ingestUrl={source.ingestUrl} onDone={() => setSecretShown(false)} /> : null}
      {asking ? (
        <ConfirmDialog
          title={`Remove ${source.name}?`}
          text={`Dibs stops reading ${addressText(source)}. The posts it brought and their matches stay. To read it again you add it anew${source.kind === 'push' ? ', with a new secret' : ''}.`}
          action="Remove"
          onCancel={() => setAsking(false)}
          onConfirm={() => {
            setAsking(false)
            void a.remove()
          }}
        />
      ) : null}
      {editing ? (
        <SourceForm
          list={list}
          editing={source}
          onSaved={() => {
            setEditing(false)
            reload()
          }}
          onCancel={() => setEditing(false)}
        />
      ) : null}
      {a.result ? (
        <section aria-label={`Fetch now: ${source.name}`} className="source-preview" data-testid="source-fetch-result">
          <p role="status" className={a.result.ok ? undefined : 'text-danger'}>
            {a.result.text}
          </p>
          {a.result.posts ? <SourcePosts posts={a.result.posts} label={`Posts read from ${source.name}`} /> : null}
        </section>
      ) : null}
    </li>
  )
}

function PolitenessForm({ list, reload }: { list: SourcesList; reload: () => void }) {
  const p = usePolitenessForm(list.politenessSeconds, reload)
  return (
    <form onSubmit={p.submit} noValidate className="politeness-form" aria-labelledby="politeness-title">
      <h3 id="politeness-title">Feed politeness</h3>
      <label>
        Seconds between two requests to one host
        <input
          type="number"
          inputMode="numeric"
          min={list.minPolitenessSeconds}
          max={86400}
          step="1"
          value={p.value}
          onChange={(e) => p.setValue(e.currentTarget.value)}
          aria-invalid={p.error ? true : undefined}
          aria-describedby={p.error ? 'politeness-error' : 'politeness-help'}
        />
        {p.error ? (
          <small id="politeness-error" className="term-error" role="alert">
            {p.error}
          </small>
        ) : (
          <small id="politeness-help">
            At least {list.minPolitenessSeconds} s. Dibs asks one forum host at most this often, whatever the number of its feeds; a host that says “slow down”
            (429, 503) rests as long as it asks.
          </small>
        )}
      </label>
      <div className="button-row">
        <button type="submit" aria-busy={p.saving} disabled={p.saving}>
          Save interval
        </button>
      </div>
    </form>
  )
}

function PairForm({ list, reload }: { list: SourcesList; reload: () => void }) {
  const p = usePairForm(list.forumPreset, reload)
  const chosen = list.pairs.find((x) => x.name === p.value)
  return (
    <form className="politeness-form source-pair" onSubmit={p.submit} aria-labelledby="pair-title">
      <h3 id="pair-title">Forum pair</h3>
      <label htmlFor="forum-pair">Ready pair of forums</label>
      <select
        id="forum-pair"
        value={p.value}
        onChange={(e) => p.setValue(e.currentTarget.value)}
        aria-invalid={p.error ? true : undefined}
        aria-describedby={p.error ? 'pair-error' : 'pair-help'}
      >
        {list.pairs.map((x) => (
          <option key={x.name} value={x.name}>
            {x.title}
            {x.name === list.forumPreset ? ' (in force)' : ''}
          </option>
        ))}
      </select>
      {p.error ? (
        <small id="pair-error" className="term-error" role="alert">
          {p.error}
        </small>
      ) : (
        <small id="pair-help">
          Switching enables the pair’s two sources (adding them when missing), disables the forums’ other sources (kept, to switch back), and the forum names in
          every text follow. {chosen?.notes ?? ''}
        </small>
      )}
      <div className="button-row">
        <button type="submit" aria-busy={p.saving} disabled={p.saving || p.value === list.forumPreset}>
          Switch forums
        </button>
      </div>
    </form>
  )
}

export function SourcesCard() {
  const sources = useSources()
  const list = sources.data
  const [added, setAdded] = useState<{ source: SourceView; secret: string } | null>(null)
  return (
    <article className="admin-card" aria-labelledby="sources-title" data-testid="sources-panel">
      <header>
        <h2 id="sources-title">Sources</h2>
      </header>
      <p className="muted small-text">
        Where each forum’s posts come from: subreddits, any forum’s or deal site’s feed (RSS, Atom, JSON Feed), or posts pushed to Dibs. Changes apply at once,
        without a restart, and go to the audit log.
      </p>
      {sources.error && !list ? (
        <p role="alert" className="inline-error">
          Could not load the sources.{' '}
          <button type="button" className="small" onClick={sources.reload}>
            Retry
          </button>
        </p>
      ) : null}
      {!list ? (
        sources.error ? null : (
          <p aria-busy="true">Loading…</p>
        )
      ) : (
        <>
          {(['accessories', 'deals'] as const).map((forum) => {
            const mine = list.sources.filter((s) => s.forum === forum)
            return (
              <section key={forum} aria-labelledby={`sources-${forum}`} className="source-forum">
                <h3 id={`sources-${forum}`}>{FORUM_LABEL[forum]}</h3>
                {mine.length === 0 ? (
                  <p className="muted">No source: this forum gets no posts.</p>
                ) : (
                  <ul className="source-list">
                    {mine.map((s) => (
                      <SourceItem key={s.id} source={s} list={list} reload={sources.reload} />
                    ))}
                  </ul>
                )}
              </section>
            )
          })}
          {added ? <SecretOnce name={added.source.name} secret={added.secret} ingestUrl={added.source.ingestUrl} onDone={() => setAdded(null)} /> : null}
          <SourceForm list={list} editing={null} onSaved={sources.reload} onAdded={setAdded} />
          <PolitenessForm list={list} reload={sources.reload} />
          <PairForm list={list} reload={sources.reload} />
        </>
      )}
    </article>
  )
}
