// The search-terms dialog (spec §2): title by category, 'Enter search term' + Add (Enter adds),
// removable chips, '{n} of {max} terms used', Clear All with confirmation, Done. Below 768 px the
// CSS turns it into a bottom sheet. A malformed term is explained inline before any request. Both
// it and the Clear All confirmation are modal (<Modal>): the confirmation takes focus at Cancel.
import { useEffect, useRef, useState } from 'react'
import { useSignals } from '@preact/signals-react/runtime'
import type { Category } from '../../src/access/categories'
import { addTerm, clearTerms, loadTerms, termLimits, terms } from '../terms'
import { TermChip, TermNotes } from './TermChip'
import { DefaultsHelp, MatchDefaults } from './MatchDefaults'
import { Modal } from './Modal'
import { TermsTransfer } from './TermsTransfer'
import { scanHelperText } from '../lib/scan-frequency'
import { config, dealsName } from '../state'

export function dialogTitle(category: string | null | undefined): string {
  switch (category) {
    case 'gd':
      return `Search ${dealsName()} Posts`
    case 'wts':
      return 'Search WTS Posts'
    case 'wtb':
      return 'Search WTB Posts'
    case null:
    case undefined:
    default:
      return 'Add Search Term'
  }
}

/** The syntax help (src/matching/README.md "The term language" has the full tables). */
const EXAMPLES: [string, string][] = [
  ['glock 19', 'all words, any order, in the same item of a listing'],
  ['"red dot"', 'exact phrase'],
  ['rmr -airsoft', 'exclude a word (in the same item; -~airsoft: anywhere in the post)'],
  ['trij*', 'any word starting with trij'],
  ['p365 | p365xl', 'either one (also: p365 OR p365xl)'],
  ['(rmr | sro) trijicon', 'parentheses group alternatives'],
  ['aimpoint t2/h2', 'either model: aimpoint t2 | aimpoint h2'],
  ['rmr NOT airsoft', 'same as rmr -airsoft; AND is the same as a space'],
  ['~trijicon t2', '~ lets a word be anywhere in the post, not only in the same item'],
  ['aimpoint <$500', "the item's price is under $500 (shipping and other items do not count)"],
  ['9mm <$0.30/rd', 'price per round (also <30cpr); pmag <$15/ea: price each'],
  ['red dot', 'a category: the words, or any model of it (RMR, 507C, T2…); also lpvo, nods, suppressor, gpu'],
  ['g19', 'aliases are built in: g19 = glock 19, nf = nightforce, 556 = 5.56'],
  [
    'title:rmr  author:name  -author:name  flair:wts',
    'look in one field; author:name alone finds every post by that author (flair: needs a Reddit key on the server: the Atom feed has no flair)',
  ],
  [
    'gpu loc:TX',
    'the seller\'s location tag ([USA-TX], [TX]): loc:US any US location, loc:"US-CA" one state, loc:CAN Canada (loc:CA is California), loc:UK, loc:EU; -loc:CA not there. A post that names no location never matches loc: and is never excluded by -loc:',
  ],
  ['rmr trades>=10', "the seller's flair shows at least 10 confirmed trades (needs a Reddit key on the server: the Atom feed has no author flair)"],
  [
    'glock 19 holster',
    'a product named only as what an accessory fits ("holster for Glock 19") counts only when the term names the accessory (holster, mount, for…)',
  ],
]

export function SearchTermsDialog({ category, open, onClose }: { category: Category; open: boolean; onClose: () => void }) {
  useSignals()
  const [text, setText] = useState('')
  const [inline, setInline] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const [confirming, setConfirming] = useState(false)
  const input = useRef<HTMLInputElement>(null)
  const cancel = useRef<HTMLButtonElement>(null)
  const list = terms.value[category] ?? []
  const max = termLimits.value[category]

  useEffect(() => {
    if (!open) return
    void loadTerms(category)
  }, [open, category])

  if (!open) return null

  const add = async () => {
    const value = text.trim()
    if (!value || busy) return
    // the server checks the term (400 INVALID_TERM: the parser's message, shown inline): the parser and its data stay
    // out of the web app's bundle
    setBusy(true)
    const r = await addTerm(category, value)
    setBusy(false)
    if (r.ok) {
      setText('')
      setInline(null)
    } else if (r.inline) setInline(r.inline)
  }

  return (
    <Modal className="terms-dialog" aria-labelledby="terms-title" onClose={onClose} initialFocus={input}>
      <article>
        <header>
          <button type="button" aria-label="Close" rel="prev" className="close-x" onClick={onClose} />
          <h3 id="terms-title">{dialogTitle(category)}</h3>
        </header>
        <form
          className="term-add"
          onSubmit={(e) => {
            e.preventDefault()
            void add()
          }}
        >
          <fieldset role="group">
            <input
              ref={input}
              name="term"
              placeholder="Enter search term"
              aria-label="Enter search term"
              value={text}
              aria-invalid={inline ? true : undefined}
              aria-describedby="term-error"
              onChange={(e) => {
                setText(e.target.value)
                setInline(null)
              }}
            />
            <button type="submit" disabled={busy || !text.trim()}>
              Add
            </button>
          </fieldset>
          {inline ? (
            <small id="term-error" className="term-error" role="alert">
              {inline}
            </small>
          ) : null}
        </form>
        <details className="syntax-help">
          <summary>Search syntax</summary>
          <ul>
            {EXAMPLES.map(([ex, what]) => (
              <li key={ex}>
                <code>{ex}</code> — {what}
              </li>
            ))}
          </ul>
          <DefaultsHelp />
        </details>
        <ul className="chips" aria-label="Saved terms">
          {list.map((t) => (
            <TermChip key={t.id} category={category} term={t} busy={busy} />
          ))}
        </ul>
        <TermNotes terms={list} />
        <p className="muted" data-testid="term-counter">
          {list.length} of {max} terms used
        </p>
        <p className="muted" data-testid="scan-frequency">
          <small>{scanHelperText(config.value.scanIntervalSeconds)}</small>
        </p>
        <MatchDefaults />
        <TermsTransfer />
        <footer>
          <button type="button" className="secondary outline" disabled={list.length === 0 || busy} onClick={() => setConfirming(true)}>
            Clear All
          </button>
          <button type="button" onClick={onClose}>
            Done
          </button>
        </footer>
      </article>
      {confirming ? (
        <Modal
          className="confirm-dialog"
          role="alertdialog"
          aria-labelledby="clear-title"
          aria-describedby="clear-text"
          onClose={() => setConfirming(false)}
          initialFocus={cancel}
        >
          <article>
            <h3 id="clear-title">Clear all search terms?</h3>
            <p id="clear-text">Are you sure you want to clear all {category.toUpperCase()} search terms? This action cannot be undone.</p>
            <footer>
              <button ref={cancel} type="button" className="secondary" onClick={() => setConfirming(false)}>
                Cancel
              </button>
              <button
                type="button"
                onClick={async () => {
                  setBusy(true)
                  await clearTerms(category)
                  setBusy(false)
                  setConfirming(false)
                }}
              >
                Confirm
              </button>
            </footer>
          </article>
        </Modal>
      ) : null}
    </Modal>
  )
}
