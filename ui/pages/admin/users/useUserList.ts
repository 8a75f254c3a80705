// Admin → Users, fetching and state of the account list: the search (sent after a pause in typing),
// the role / status / trial-ending filters, the page and its size, and GET /api/admin/users (an
// answer to an older request is dropped). The page (../Users.tsx) only renders.
import { useCallback, useEffect, useRef, useState } from 'react'
import { api, ApiError, call } from '../../../client'
import type { UserPage } from './types'

export function useUserList() {
  const [search, setSearch] = useState('')
  const [query, setQuery] = useState('')
  const [role, setRole] = useState('')
  const [status, setStatus] = useState('')
  const [trialEnding, setTrialEnding] = useState(false)
  const [page, setPage] = useState(1)
  const [pageSize, setPageSize] = useState(25)
  const [data, setData] = useState<UserPage | null>(null)
  const [error, setError] = useState<string | null>(null)
  const seq = useRef(0)

  // Search waits for a pause in typing.
  useEffect(() => {
    const t = setTimeout(() => {
      setQuery(search.trim())
      setPage(1)
    }, 250)
    return () => clearTimeout(t)
  }, [search])

  const load = useCallback(async () => {
    const n = ++seq.current
    const filters = { ...(query ? { q: query } : {}), ...(role ? { role } : {}), ...(status ? { status } : {}), ...(trialEnding ? { trialEnding: '1' } : {}) }
    try {
      const r = await call(api.admin.users.get({ query: { page, pageSize, ...filters } }))
      if (n !== seq.current) return
      setData(r)
      setError(null)
    } catch (err) {
      if (n === seq.current) setError(err instanceof ApiError ? err.message : 'Failed to load users.')
    }
  }, [query, role, status, trialEnding, page, pageSize])
  useEffect(() => void load(), [load])

  /** A filter's change handler: the new value, from the first page. */
  const filter = (set: (v: string) => void) => (e: { target: { value: string } }) => {
    set(e.target.value)
    setPage(1)
  }

  return { search, setSearch, role, setRole, status, setStatus, trialEnding, setTrialEnding, setPage, pageSize, setPageSize, data, error, filter, reload: load }
}
