// One saved term in the search-terms dialog: its text (edited in place: Enter saves, Escape
// cancels), Pause/Resume (a paused term keeps its matches and finds no new ones) and Remove. A term that
// cannot match on this installation (term.note: flair:/trades>= without a Reddit key) carries a warning icon; the
// dialog spells the note out under the chips (TermNotes).
import { useEffect, useRef, useState } from 'react'
import type { Category } from '../../src/access/categories'
import { removeTerm, updateTerm, type Term } from '../terms'
import { TermDeliveryButton } from './TermDelivery'
import { Icon } from './Icon'

export function TermChip({ category, term, busy }: { category: Category; term: Term; busy: boolean }) {
  const [editing, setEditing] = useState(false)
  const [text, setText] = useState(term.term)
  const [error, setError] = useState<string | null>(null)
  // Leaving the editor (saved or cancelled) puts focus back on the chip, not on <body>.
  const textButton = useRef<HTMLButtonElement>(null)
  const wasEditing = useRef(false)
  useEffect(() => {
    if (wasEditing.current && !editing) textButton.current?.focus()
    wasEditing.current = editing
  }, [editing])
  const save = async () => {
    if (text.trim().toLowerCase() === term.term) return setEditing(false)
    const r = await updateTerm(category, term.id, { term: text })
    if (r.ok) setEditing(false)
    else setError(r.inline ?? null)
  }
  if (editing)
    return (
      <li className="chip editing">
        <input
          aria-label={`Edit ${term.term}`}
          value={text}
          autoFocus
          maxLength={200}
          aria-invalid={error ? true : undefined}
          onChange={(e) => (setText(e.target.value), setError(null))}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault()
              void save()
            }
            if (e.key === 'Escape') {
              e.preventDefault()
              e.stopPropagation()
              setEditing(false)
              setText(term.term)
            }
          }}
        />
        <button type="button" aria-label={`Save ${term.term}`} disabled={busy} onClick={() => void save()}>
          <Icon name="check" />
        </button>
        {error ? (
          <small className="term-error" role="alert">
            {error}
          </small>
        ) : null}
      </li>
    )
  return (
    <li className={`chip${term.paused ? ' paused' : ''}`} data-testid="term-chip">
      <button
        ref={textButton}
        type="button"
        className="chip-text"
        title="Edit"
        aria-label={`Edit ${term.term}`}
        aria-describedby={term.note ? `term-note-${term.id}` : undefined}
        disabled={busy}
        onClick={() => setEditing(true)}
      >
        {term.term}
        {term.paused ? <small> (paused)</small> : null}
        {term.note ? (
          <span className="term-note-mark" aria-hidden="true" title={term.note}>
            {' '}
            <Icon name="warning" />
          </span>
        ) : null}
      </button>
      <button
        type="button"
        aria-label={`${term.paused ? 'Resume' : 'Pause'} ${term.term}`}
        title={term.paused ? 'Resume' : 'Pause'}
        disabled={busy}
        onClick={() => void updateTerm(category, term.id, { paused: !term.paused })}
      >
        <Icon name={term.paused ? 'play' : 'pause'} />
      </button>
      <TermDeliveryButton category={category} term={term} busy={busy} />
      <button type="button" aria-label={`Remove ${term.term}`} disabled={busy} onClick={() => void removeTerm(category, term.id)}>
        ×
      </button>
    </li>
  )
}

/** The notes of terms that cannot match on this installation, spelled out under the chips (ids for the chips' aria-describedby). */
export function TermNotes({ terms }: { terms: Term[] }) {
  const noted = terms.filter((t) => t.note)
  if (noted.length === 0) return null
  return (
    <ul className="term-notes" data-testid="term-notes">
      {noted.map((t) => (
        <li key={t.id} id={`term-note-${t.id}`}>
          <span aria-hidden="true">
            <Icon name="warning" />{' '}
          </span>
          <code>{t.term}</code>: {t.note}
        </li>
      ))}
    </ul>
  )
}
