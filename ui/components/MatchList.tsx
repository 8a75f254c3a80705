// A category's match list (spec §2, §4, §8): heading, '{n} new' badge, Mark all as read, mark one
// read, archive one / selected / all visible, 20 shown then +20 per 'Show more', 'Load More' from
// the server, the empty states, live updates from the socket and a refetch after reconnects.
import { withPostState } from './PostStateBadge'
import { useCallback, useEffect, useRef, useState } from 'react'
import { useSignals } from '@preact/signals-react/runtime'
import type { Category } from '../../src/access/categories'
import { api, ApiError, call } from '../client'
import { addMatch, applyUpdate, LIST_STEP, newCount, type Match } from '../lib/matches'
import { onMessage } from '../realtime'
import { categoryLabel, terms, termsVersion } from '../terms'
import { toast } from '../toast'
import { MatchCard } from './MatchCard'
import { filterMatches } from '../lib/match-keys'
import { MatchListTools, useDensity, useMatchKeys } from './MatchListTools'

export function emptyText(termCount: number | null): string {
  if (termCount === null) return 'No matches found'
  if (termCount === 0) return "You haven't set up any search terms yet. Add some search terms to start seeing matches."
  return "No matches found for your search terms. We'll notify you when matches are found."
}

/** `query` searches titles, authors and matched terms on the server (the archive's search box). */
type Props = { category: Category; archived?: boolean; query?: string; onRefreshed?: (at: Date) => void }

export function MatchList({ category, archived = false, query = '', onRefreshed }: Props) {
  useSignals()
  const [matches, setMatches] = useState<Match[] | null>(null)
  const [cursor, setCursor] = useState<string | null>(null)
  const [visible, setVisible] = useState(LIST_STEP)
  const [selected, setSelected] = useState<Set<number>>(new Set())
  const [loadingMore, setLoadingMore] = useState(false)
  const version = termsVersion.value
  const [filter, setFilter] = useState('')
  const [density, setDensity] = useDensity()
  const [keysOpen, setKeysOpen] = useState(false)
  const listRef = useRef<HTMLElement>(null)
  // the keys' handlers, set once the list has loaded (below)
  const actions = useRef<{ toggleRead?: (id: number) => void; archive?: (id: number) => void }>({})
  // ?match=<id> (the link in an alert email): scroll to that match and flash it, once.
  const [flashId, setFlashId] = useState<number | null>(null)
  const [target, setTarget] = useState<number | null>(() => {
    const id = Number(new URLSearchParams(window.location.search).get('match'))
    return !archived && Number.isInteger(id) && id > 0 ? id : null
  })
  useEffect(() => {
    if (target === null || matches === null) return
    const index = matches.findIndex((m) => m.id === target)
    setTarget(null)
    if (index < 0) {
      toast({ title: 'Match not in this list', description: 'It may have been archived: look in your Archive.' })
      return
    }
    if (index >= visible) setVisible(index + 1)
    setFlashId(target)
    const t = setTimeout(() => setFlashId(null), 2500)
    return () => clearTimeout(t)
  }, [matches, target])
  // Scrolled once the flashed card is rendered (an effect runs after the commit that shows it; a
  // card beyond the first ones shown appears only in the render that widened the list).
  useEffect(() => {
    if (flashId !== null) document.querySelector(`[data-match-id="${flashId}"]`)?.scrollIntoView({ block: 'center', behavior: 'smooth' })
  }, [flashId])

  const fetchPage = useCallback(
    async (after: string | null) => {
      const q = query.trim()
      return call(api.matches.get({ query: { category, ...(archived ? { archived: '1' } : {}), ...(q ? { q } : {}), ...(after ? { cursor: after } : {}) } }))
    },
    [category, archived, query],
  )

  const reload = useCallback(async () => {
    try {
      const r = await fetchPage(null)
      setMatches(r.matches)
      setCursor(r.nextCursor)
      onRefreshed?.(new Date())
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) return
      setMatches((m) => m ?? [])
      toast({
        title: 'Error',
        description: archived ? 'Failed to load archived matches' : `Failed to load ${category.toUpperCase()} matches`,
        variant: 'destructive',
      })
    }
  }, [fetchPage, category, archived])

  useEffect(() => {
    setMatches(null)
    setVisible(LIST_STEP)
    setSelected(new Set())
    void reload()
  }, [reload, version])

  useEffect(() => {
    const offs = [
      onMessage('reconnected', () => void reload()),
      onMessage('post.updated', (d) => setMatches((m) => m && withPostState(m, (x) => x.postId, d.post.postId, d.post.state))),
      onMessage('match.updated', (d) => {
        // a match enters a list by being archived (the archive) or restored (its category list)
        if (d.change === (archived ? 'archived' : 'restored')) return void reload()
        setMatches((m) => (m ? applyUpdate(m, d.ids, d.change) : m))
      }),
    ]
    if (!archived) {
      offs.push(
        onMessage('match.new', (d) => {
          if (d.match.category !== category) return
          setMatches((m) => (m ? addMatch(m, d.match) : m))
          onRefreshed?.(new Date())
        }),
      )
    }
    return () => offs.forEach((off) => off())
  }, [category, archived, reload])

  useMatchKeys(listRef, {
    onHelp: () => setKeysOpen((o) => !o),
    onToggleRead: archived ? undefined : (id) => actions.current.toggleRead?.(id),
    onArchive: archived ? undefined : (id) => actions.current.archive?.(id),
  })

  if (matches === null)
    return (
      <section className="match-list">
        <p aria-busy="true">Loading matches...</p>
      </section>
    )

  const markUnread = async (id: number) => {
    setMatches((m) => m && applyUpdate(m, [id], 'unread'))
    try {
      await call(api.matches({ id }).unread.post({}))
    } catch {
      toast({ title: 'Error', description: 'Failed to mark match as unread', variant: 'destructive' })
      void reload()
    }
  }
  const markRead = async (id: number) => {
    setMatches((m) => m && applyUpdate(m, [id], 'read'))
    try {
      await call(api.matches({ id }).read.post({}))
    } catch {
      toast({ title: 'Error', description: 'Failed to mark match as read', variant: 'destructive' })
      void reload()
    }
  }
  const archiveOne = async (id: number) => {
    try {
      await call(api.matches({ id }).archive.post({}))
      setMatches((m) => m && applyUpdate(m, [id], 'archived'))
      toast({ title: 'Match archived', description: 'The match has been archived successfully' })
    } catch {
      toast({ title: 'Error', description: 'Failed to archive match', variant: 'destructive' })
    }
  }
  actions.current = {
    toggleRead: (id) => void (matches.find((x) => x.id === id)?.isNew ? markRead(id) : markUnread(id)),
    archive: (id) => void archiveOne(id),
  }
  const restoreOne = async (id: number) => {
    try {
      await call(api.matches({ id }).restore.post({}))
      setMatches((m) => m && applyUpdate(m, [id], 'restored'))
      toast({ title: 'Match restored', description: `The match is back in your ${categoryLabel(category)} matches` })
    } catch {
      toast({ title: 'Error', description: 'Failed to restore match', variant: 'destructive' })
    }
  }
  const archiveSelected = async () => {
    const ids = [...selected]
    const results = await Promise.allSettled(ids.map((id) => call(api.matches({ id }).archive.post({}))))
    const done = ids.filter((_, i) => results[i]!.status === 'fulfilled')
    setMatches((m) => m && applyUpdate(m, done, 'archived'))
    setSelected(new Set())
    if (done.length < ids.length)
      toast({ title: 'Error archiving', description: 'There was a problem archiving some matches. Please try again.', variant: 'destructive' })
    else toast({ title: 'Match archived', description: `${done.length} matches archived` })
  }
  const markAll = async () => {
    try {
      await call(api.matches['read-all'].post({ category }))

      setMatches((m) => m && m.map((x) => ({ ...x, isNew: false })))
      toast({ title: 'Success', description: 'All matches marked as read' })
    } catch {
      toast({ title: 'Error', description: 'Failed to mark all matches as read', variant: 'destructive' })
    }
  }
  const loadMore = async () => {
    if (!cursor) return
    setLoadingMore(true)
    try {
      const r = await fetchPage(cursor)
      setMatches((m) => [...(m ?? []), ...r.matches.filter((x) => !(m ?? []).some((y) => y.id === x.id))])
      setCursor(r.nextCursor)
      setVisible((v) => v + LIST_STEP)
    } catch {
      toast({ title: 'Error', description: `Failed to load ${category.toUpperCase()} matches`, variant: 'destructive' })
    } finally {
      setLoadingMore(false)
    }
  }

  const shown = filterMatches(matches, filter).slice(0, visible)
  const fresh = newCount(matches)
  const allVisibleSelected = shown.length > 0 && shown.every((m) => selected.has(m.id))
  const termCount = terms.value[category]?.length ?? null
  const heading = archived ? `Archived ${categoryLabel(category)} Matches` : `${categoryLabel(category)} Matches`

  return (
    <section className={`match-list${density === 'compact' ? ' compact' : ''}`} aria-label={heading} ref={listRef}>
      <header className="match-list-head">
        <h2>
          {heading}
          {!archived && fresh > 0 ? (
            <span className="badge count-badge" data-testid="new-count">
              {fresh} new
            </span>
          ) : null}
        </h2>
        {!archived && fresh > 0 ? (
          <button type="button" className="outline small" onClick={markAll}>
            Mark all as read
          </button>
        ) : null}
      </header>
      <MatchListTools filter={filter} onFilter={setFilter} density={density} onDensity={setDensity} keysOpen={keysOpen} onKeys={() => setKeysOpen((o) => !o)} />
      {!archived && shown.length > 0 ? (
        <div className="selection-bar">
          <label>
            <input type="checkbox" checked={allVisibleSelected} onChange={(e) => setSelected(e.target.checked ? new Set(shown.map((m) => m.id)) : new Set())} />
            Select all
          </label>
          {selected.size > 0 ? (
            <button type="button" className="secondary small" onClick={archiveSelected}>
              Archive selected ({selected.size})
            </button>
          ) : null}
          <span className="muted">{fresh} unread</span>
        </div>
      ) : null}
      {shown.length === 0 ? (
        <p className="empty muted">
          {filter.trim() && matches.length > 0
            ? `No matches for "${filter.trim()}"`
            : archived
              ? query.trim()
                ? `No archived matches for "${query.trim()}"`
                : 'No matches found'
              : emptyText(termCount)}
        </p>
      ) : (
        <div className="match-items">
          {shown.map((m) => (
            <MatchCard
              key={m.id}
              match={m}
              flash={flashId === m.id}
              selected={selected.has(m.id)}
              onSelect={
                archived
                  ? undefined
                  : (on) =>
                      setSelected((s) => {
                        const n = new Set(s)
                        if (on) n.add(m.id)
                        else n.delete(m.id)
                        return n
                      })
              }
              onRead={archived ? undefined : () => void markRead(m.id)}
              onArchive={archived ? undefined : () => void archiveOne(m.id)}
              onRestore={archived ? () => void restoreOne(m.id) : undefined}
            />
          ))}
        </div>
      )}
      <div className="list-more">
        {matches.length > visible ? (
          <button type="button" className="outline" onClick={() => setVisible((v) => v + LIST_STEP)}>
            Show more
          </button>
        ) : null}
        {matches.length <= visible && cursor ? (
          <button type="button" className="outline" aria-busy={loadingMore} onClick={loadMore}>
            Load More
          </button>
        ) : null}
      </div>
    </section>
  )
}
