// 'Live Reddit Feed' on the landing page (spec §2, §4): WTS / WTB / GUNDEALS tabs, 10 per page,
// live inserts from the socket's `feed` topic applied on page 1 only, with a 2-second highlight
// of the tab and the first post.
import { dealsName } from '../state'
import { withPostState } from './PostStateBadge'
import { useCallback, useEffect, useRef, useState } from 'react'
import { useSignals } from '@preact/signals-react/runtime'
import type { Category } from '../../src/access/categories'
import type { FeedItem } from '../../src/contract/events'
import { Link } from 'wouter'
import { me } from '../account'
import { api, call } from '../client'
import { acceptsLivePost, feedTabs, feedCategory, HIGHLIGHT_MS, insertLive } from '../lib/feed'
import { FEED_PAGE_SIZE, pageCount } from '../lib/pagination'
import { connection, onMessage, startRealtime } from '../realtime'
import { Pagination } from './Pagination'
import { PostCard } from './PostCard'

type Page = { posts: FeedItem[]; total: number; page: number; pageSize: number; delayed?: boolean }

/** An empty feed while the source cannot read: a visitor reads that posts are delayed; an admin the cause, with Logs. */
function DelayedNote() {
  useSignals()
  const admin = me.value?.access?.userRole === 'admin'
  const [cause, setCause] = useState<string | null>(null)
  useEffect(() => {
    if (admin)
      call(api.admin.scanner.get())
        .then((s) => setCause(s.health?.reason ?? null))
        .catch(() => {})
  }, [admin])
  return (
    <p className="muted feed-delayed" data-testid="feed-delayed">
      New posts are delayed: Dibs cannot read the forums right now. They will show here as soon as it can.
      {admin ? (
        <>
          {' '}
          {cause ? `Cause: ${cause}. ` : ''}
          <Link href="/admin/logs">Details on Logs</Link>
        </>
      ) : null}
    </p>
  )
}

export function LiveFeed() {
  useSignals()
  const [tab, setTab] = useState<Category>('wts')
  const [page, setPage] = useState(1)
  const [data, setData] = useState<Page | null>(null)
  const [error, setError] = useState(false)
  const [flash, setFlash] = useState<{ tab: Category; id: number } | null>(null)
  const view = useRef({ tab, page })
  view.current = { tab, page }
  const flashTimer = useRef<ReturnType<typeof setTimeout> | null>(null)
  const loaded = useRef(false)
  loaded.current = data !== null

  // A live post that arrives while a page is loading is not lost: the load runs again.
  const missed = useRef(false)
  const load = useCallback(async (t: Category, p: number) => {
    try {
      missed.current = false
      let r: Page = await call(api.posts.get({ query: { category: t, page: p } }))
      if (missed.current) {
        missed.current = false
        r = await call(api.posts.get({ query: { category: t, page: p } }))
      }

      if (view.current.tab !== t || view.current.page !== p) return
      setData(r)
      setError(false)
    } catch {
      setError(true)
      setData({ posts: [], total: 0, page: p, pageSize: FEED_PAGE_SIZE })
    }
  }, [])

  useEffect(() => {
    setData(null)
    void load(tab, page)
  }, [tab, page, load])

  useEffect(() => {
    startRealtime()
    const offNew = onMessage('post.new', (d) => {
      const post = d.post
      const cat = feedCategory(post)
      if (!cat) return
      const { tab: t, page: p } = view.current
      if (cat !== t) {
        // Another tab: only flash its label.
        flashNow({ tab: cat, id: -1 })
        return
      }
      if (!acceptsLivePost(post, t, p)) return
      if (!loaded.current) missed.current = true
      setData((prev) =>
        prev ? { ...prev, posts: insertLive(prev.posts, post, FEED_PAGE_SIZE), total: prev.total + (prev.posts.some((x) => x.id === post.id) ? 0 : 1) } : prev,
      )
      flashNow({ tab: cat, id: post.id })
    })
    const offRe = onMessage('reconnected', () => void load(view.current.tab, view.current.page))
    const offState = onMessage('post.updated', (d) =>
      setData((prev) => prev && { ...prev, posts: withPostState(prev.posts, (x) => x.id, d.post.postId, d.post.state) }),
    )
    return () => {
      offNew()
      offRe()
      offState()
    }
  }, [load])

  function flashNow(f: { tab: Category; id: number }) {
    if (flashTimer.current) clearTimeout(flashTimer.current)
    setFlash(f)
    flashTimer.current = setTimeout(() => setFlash(null), HIGHLIGHT_MS)
  }

  const tabs = feedTabs(dealsName())
  const current = tabs.find((t) => t.id === tab)!
  const pages = pageCount(data?.total ?? 0, data?.pageSize ?? FEED_PAGE_SIZE)
  return (
    <section className="live-feed" id="live-feed" aria-labelledby="feed-title">
      <header className="feed-head">
        <h2 id="feed-title">Live Reddit Feed</h2>
        {connection.value === 'success' ? (
          <span className="live-indicator" data-testid="live-indicator">
            <span className="dot" aria-hidden="true" /> Live updates enabled
          </span>
        ) : null}
      </header>
      {data?.delayed && data.total === 0 ? <DelayedNote /> : null}
      <div role="tablist" className="tabs feed-tabs">
        {tabs.map((t) => (
          <button
            key={t.id}
            type="button"
            role="tab"
            aria-selected={tab === t.id}
            data-highlighted={flash?.tab === t.id ? 'true' : undefined}
            className={`${tab === t.id ? '' : 'outline secondary'}${flash?.tab === t.id ? ' highlight' : ''}`}
            onClick={() => {
              setTab(t.id)
              setPage(1)
            }}
          >
            {t.label}
          </button>
        ))}
      </div>
      {data === null ? (
        <p aria-busy="true">Loading posts...</p>
      ) : data.posts.length === 0 ? (
        <p className="muted empty">{error ? 'Could not load posts. Please try again later.' : current.empty}</p>
      ) : (
        <div className="feed-posts">
          {data.posts.map((p, i) => (
            <PostCard key={p.id} post={p} highlighted={i === 0 && flash?.id === p.id} />
          ))}
        </div>
      )}
      <Pagination page={page} pages={pages} onPage={setPage} />
    </section>
  )
}
