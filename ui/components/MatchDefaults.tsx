// Defaults for every term (issue 15 item 16), inside the search-terms dialog: 'Skip posts marked
// SOLD or PENDING' (on unless the user unticks it) and 'Always exclude these words' (chips; airsoft
// offered with one click). Each change saves at once (PUT /api/match-defaults), optimistically: the
// UI changes, and goes back with an error toast if the save fails; a refused word is explained
// inline with the server's message. Saves go one after another in the order of the changes: the
// controls stay usable while one runs (a change made meanwhile is shown at once and sent next).
import { useEffect, useRef, useState } from 'react'
import { api, ApiError, call, type Answer } from '../client'
import { errorToast, toast } from '../toast'

export type MatchDefaultsView = Answer<(typeof api)['match-defaults']['get']>

export const DEFAULTS_TEXTS = {
  summary: 'Defaults for all your terms',
  help: 'Apply to every term in every forum, live alerts and new-term backfill alike. An excluded word works like -word added to each term.',
  skipSold: 'Skip posts marked SOLD or PENDING',
  exclude: 'Always exclude these words',
  saveFailed: 'Failed to save your search defaults',
  loadFailed: 'Failed to load your search defaults',
  syntaxHelp:
    "Every term also skips posts marked SOLD or PENDING and leaves out your always-excluded words (e.g. airsoft): change both under 'Defaults for all your terms'.",
} as const

/** One line for the syntax help: the defaults exist and where to change them. */
export function DefaultsHelp() {
  return (
    <p className="muted">
      <small>{DEFAULTS_TEXTS.syntaxHelp}</small>
    </p>
  )
}

export function MatchDefaults() {
  const [view, setView] = useState<MatchDefaultsView | null>(null)
  const [word, setWord] = useState('')
  const [inline, setInline] = useState<string | null>(null)
  // the saves in flight, chained; the last view the server confirmed (what a failed save goes back to)
  const queue = useRef<Promise<unknown>>(Promise.resolve())
  const confirmed = useRef<MatchDefaultsView | null>(null)
  const pending = useRef(0)

  useEffect(() => {
    let live = true
    call(api['match-defaults'].get())
      .then((v) => {
        if (live && Array.isArray(v?.excludeWords)) {
          confirmed.current = v
          setView(v)
        }
      })
      .catch((err) => live && !(err instanceof ApiError && err.status === 401) && errorToast(DEFAULTS_TEXTS.loadFailed))
    return () => {
      live = false
    }
  }, [])

  if (view === null) return null

  /** Saves a change after the ones before it; the view shows it at once and goes back if the server refuses. */
  function save(change: Partial<Pick<MatchDefaultsView, 'skipSold' | 'excludeWords'>>, done: string): Promise<boolean> {
    setView((v) => (v === null ? v : { ...v, ...change }))
    pending.current++
    const run = queue.current.then(async () => {
      try {
        const saved = await call(api['match-defaults'].put(change))

        confirmed.current = saved
        // the server's answer is the view unless later changes, already shown, are still on their way
        if (pending.current === 1) setView(saved)
        toast({ title: 'Search defaults saved', description: done })
        return true
      } catch (err) {
        if (confirmed.current) setView(confirmed.current)
        if (err instanceof ApiError && err.code === 'INVALID_DEFAULTS') setInline(err.message)
        else errorToast(DEFAULTS_TEXTS.saveFailed)
        return false
      } finally {
        pending.current--
      }
    })
    queue.current = run
    return run
  }

  /** `typed`: the words come from the input, which empties once they are saved (if it still holds them). */
  const addWords = async (raw: string, typed: boolean) => {
    const words = raw
      .split(',')
      .map((w) => w.trim().toLowerCase().replace(/\s+/g, ' '))
      .filter(Boolean)
    if (words.length === 0) return
    const fresh = words.filter((w) => !view.excludeWords.includes(w))
    if (fresh.length === 0) return setInline(`"${words[0]}" is already excluded`)
    const quoted = fresh.map((w) => `"${w}"`).join(', ')
    const saved = await save({ excludeWords: [...view.excludeWords, ...fresh] }, `Posts with ${quoted} are left out of every term.`)
    // a suggestion saved while the user types must not wipe what they are typing
    if (saved && typed) setWord((w) => (w === raw ? '' : w))
  }

  const suggestions = view.suggestions.filter((s) => !view.excludeWords.includes(s))

  return (
    <details className="match-defaults" data-testid="match-defaults">
      <summary>{DEFAULTS_TEXTS.summary}</summary>
      <p className="muted">
        <small>{DEFAULTS_TEXTS.help}</small>
      </p>
      <label>
        <input
          type="checkbox"
          name="skip-sold"
          checked={view.skipSold}
          onChange={(e) =>
            void save(
              { skipSold: e.target.checked },
              e.target.checked ? 'Posts marked SOLD or PENDING are skipped.' : 'Posts marked SOLD or PENDING are matched too.',
            )
          }
        />
        {DEFAULTS_TEXTS.skipSold}
      </label>
      <form
        className="term-add"
        onSubmit={(e) => {
          e.preventDefault()
          void addWords(word, true)
        }}
      >
        <label htmlFor="exclude-word">{DEFAULTS_TEXTS.exclude}</label>
        <fieldset role="group">
          <input
            id="exclude-word"
            name="exclude-word"
            placeholder="e.g. airsoft, gel blaster"
            value={word}
            maxLength={400}
            aria-invalid={inline ? true : undefined}
            aria-describedby="exclude-error"
            onChange={(e) => (setWord(e.target.value), setInline(null))}
          />
          <button type="submit" className="secondary" disabled={!word.trim()}>
            Exclude
          </button>
        </fieldset>
        {inline ? (
          <small id="exclude-error" className="term-error" role="alert">
            {inline}
          </small>
        ) : null}
      </form>
      <ul className="chips" aria-label={DEFAULTS_TEXTS.exclude}>
        {view.excludeWords.map((w) => (
          <li key={w} className="chip">
            <span>{w}</span>
            <button
              type="button"
              aria-label={`Stop excluding ${w}`}
              title="Stop excluding"
              onClick={() => void save({ excludeWords: view.excludeWords.filter((x) => x !== w) }, `Posts with "${w}" can match again.`)}
            >
              ×
            </button>
          </li>
        ))}
      </ul>
      {suggestions.map((s) => (
        <button key={s} type="button" className="secondary outline suggestion" onClick={() => void addWords(s, false)}>
          Add {s}
        </button>
      ))}
    </details>
  )
}
