// The 7 / 30 / 90 days switch of the admin Trends and Alerts pages, and the loader both pages use:
// one typed request, again whenever its key (the address it reads) changes; errors end as a toast and a Retry button.
import { useCallback, useEffect, useRef, useState } from 'react'
import { ApiError } from '../../client'
import { errorToast } from '../../toast'

export const RANGES = [7, 30, 90] as const
export type Range = (typeof RANGES)[number]

export function RangePicker({ value, onChange }: { value: Range; onChange: (r: Range) => void }) {
  return (
    <fieldset className="ad-range" role="radiogroup" aria-label="Range">
      {RANGES.map((r) => (
        <label key={r}>
          <input type="radio" name="range" value={r} checked={value === r} onChange={() => onChange(r)} />
          {r} days
        </label>
      ))}
    </fieldset>
  )
}

/** `request` is read again when `key` changes: `useAdminData(`/api/admin/trends?days=${days}`, () => call(api.admin.trends.get(…)), …)`. */
export function useAdminData<T>(key: string, request: () => Promise<T>, failure: string) {
  const [data, setData] = useState<T | null>(null)
  const [error, setError] = useState<string | null>(null)
  const latest = useRef(request)
  latest.current = request
  const load = useCallback(async () => {
    setError(null)
    try {
      setData(await latest.current())
    } catch (err) {
      const message = err instanceof ApiError ? err.message : failure
      setError(message)
      errorToast(message, failure)
    }
  }, [key, failure])

  useEffect(() => void load(), [load])
  return { data, error, reload: load }
}

export function LoadError({ error, title, retry }: { error: string; title: string; retry: () => void }) {
  return (
    <article className="ad-error" role="alert">
      <strong>{title}</strong>
      <p>{error}</p>
      <button type="button" className="secondary" onClick={retry}>
        Retry
      </button>
    </article>
  )
}
