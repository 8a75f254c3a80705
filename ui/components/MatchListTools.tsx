// The match list's tools (issue 30 §5): an instant filter over the loaded matches (title, term,
// author), the density (comfortable or compact, remembered per user in this browser), and the
// keyboard: j / k / o / m / e with a visible focus, ? to show the keys (ui/lib/match-keys.ts).
import { useEffect, useState, type RefObject } from 'react'
import { me } from '../account'
import { densityKey, KEY_HELP, matchKeyAction, type Density } from '../lib/match-keys'
import { Icon } from './Icon'

export function useDensity(): [Density, (d: Density) => void] {
  const key = densityKey(me.value?.user.id)
  const read = (): Density => (localStorage.getItem(key) === 'compact' ? 'compact' : 'comfortable')
  const [density, setDensity] = useState<Density>(read)
  useEffect(() => setDensity(read()), [key])
  return [
    density,
    (d) => {
      localStorage.setItem(key, d)
      setDensity(d)
    },
  ]
}

type KeyHandlers = { onToggleRead?: (id: number) => void; onArchive?: (id: number) => void; onHelp: () => void }

/** The cards' title links in the list, in order (the focus the keys move). */
const links = (list: HTMLElement) => [...list.querySelectorAll<HTMLAnchorElement>('[data-match-id] .match-title a')]
const idOf = (el: Element | null) => Number(el?.closest('[data-match-id]')?.getAttribute('data-match-id')) || null

/** j / k move the focus between the cards' links; o opens the focused post (and marks it read, as a click does); m and e act on it. */
export function useMatchKeys(list: RefObject<HTMLElement | null>, handlers: KeyHandlers) {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const action = matchKeyAction(e, e.target as HTMLElement | null, document.querySelector('dialog[open]') !== null)
      const box = list.current
      if (!action || !box) return
      if (action === 'help') {
        e.preventDefault()
        handlers.onHelp()
        return
      }
      const all = links(box)
      const at = all.findIndex((a) => a === document.activeElement || a.closest('[data-match-id]')?.contains(document.activeElement))
      if (action === 'next' || action === 'prev') {
        const next = all[at < 0 ? 0 : Math.max(0, Math.min(all.length - 1, at + (action === 'next' ? 1 : -1)))]
        if (!next) return
        e.preventDefault()
        next.focus()
        next.closest('[data-match-id]')?.scrollIntoView({ block: 'nearest' })
        return
      }
      const current = all[at]
      const id = idOf(current ?? null)
      if (!current || id === null) return
      e.preventDefault()
      if (action === 'open') current.click()
      else if (action === 'toggleRead') handlers.onToggleRead?.(id)
      else if (action === 'archive' && handlers.onArchive) {
        handlers.onArchive(id)
        // the focus goes on to the card that takes this one's place
        const after = all[at + 1] ?? all[at - 1]
        after?.focus()
      }
    }
    document.addEventListener('keydown', onKey)
    return () => document.removeEventListener('keydown', onKey)
  })
}

type Props = { filter: string; onFilter: (q: string) => void; density: Density; onDensity: (d: Density) => void; keysOpen: boolean; onKeys: () => void }

export function MatchListTools({ filter, onFilter, density, onDensity, keysOpen, onKeys }: Props) {
  const compact = density === 'compact'
  return (
    <div className="match-tools">
      <input
        type="search"
        name="match-filter"
        placeholder="Filter by title, term or author"
        aria-label="Filter matches"
        value={filter}
        onChange={(e) => onFilter(e.target.value)}
      />
      <button type="button" className="outline secondary small" aria-pressed={compact} onClick={() => onDensity(compact ? 'comfortable' : 'compact')}>
        Compact
      </button>
      <button type="button" className="outline secondary small" aria-expanded={keysOpen} aria-controls={keysOpen ? 'match-keys' : undefined} onClick={onKeys}>
        <Icon name="keyboard" /> Keys
      </button>
      {keysOpen ? (
        <dl id="match-keys" className="match-keys" aria-label="Keyboard shortcuts">
          {KEY_HELP.map(([k, what]) => (
            <div key={k}>
              <dt>
                <kbd>{k}</kbd>
              </dt>
              <dd>{what}</dd>
            </div>
          ))}
        </dl>
      ) : null}
    </div>
  )
}
