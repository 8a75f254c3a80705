// Settings → Account → Feeds of your matches (GET /api/feeds): the secret Atom and JSON Feed addresses
// for all matches and per category, each with a copy button, and 'New feed address'
// (POST /api/feeds/rotate, after a confirmation: the old addresses stop working at once).
import { useCallback, useEffect, useState } from 'react'
import { useSignals } from '@preact/signals-react/runtime'
import type { Category } from '../../../src/access/categories'
import type { FeedAddresses } from '../../../src/feeds/service'
import { api, ApiError, call } from '../../client'
import { ConfirmDialog } from '../../components/ConfirmDialog'
import { CopyButton } from '../../components/CopyButton'
import { dealsName } from '../../state'
import { toast } from '../../toast'

const FORMATS = [
  ['atom', 'Atom'],
  ['json', 'JSON Feed'],
] as const

export function FeedsSection() {
  useSignals()
  const [feeds, setFeeds] = useState<FeedAddresses | null>(null)
  const [confirming, setConfirming] = useState(false)
  const load = useCallback(async () => {
    try {
      setFeeds(await call(api.feeds.get()))
    } catch (err) {
      if (!(err instanceof ApiError && err.status === 401))
        toast({ title: 'Error', description: 'Failed to load your feed addresses.', variant: 'destructive' })
    }
  }, [])
  useEffect(() => void load(), [load])

  const rotate = async () => {
    setConfirming(false)
    try {
      setFeeds(await call(api.feeds.rotate.post()))

      toast({ title: 'New feed address', description: 'The old feed addresses no longer work. Update your feed reader.' })
    } catch {
      toast({ title: 'Error', description: 'Failed to make a new feed address.', variant: 'destructive' })
    }
  }

  const rows: [string, { atom: string; json: string }][] = feeds
    ? [
        ['All matches', feeds],
        ...(['wts', 'wtb', 'gd'] as Category[]).map((c): [string, { atom: string; json: string }] => [
          c === 'gd' ? dealsName() : c.toUpperCase(),
          feeds.categories[c],
        ]),
      ]
    : []

  return (
    <section aria-labelledby="feeds-title" className="feeds">
      <h4 id="feeds-title">Feeds of your matches</h4>
      <p className="muted">
        <small>
          Follow your matches in a feed reader. Anyone with one of these addresses can read your matches: keep them private, and make a new one if an address
          got out.
        </small>
      </p>
      {feeds === null ? (
        <p aria-busy="true">Loading feed addresses...</p>
      ) : (
        <ul className="feed-urls">
          {rows.map(([label, urls]) =>
            FORMATS.map(([format, name]) => (
              <li key={`${label}-${format}`} data-testid="feed-url">
                <small aria-hidden="true">
                  {label} · {name}
                </small>
                <fieldset role="group">
                  <input type="text" readOnly value={urls[format]} onFocus={(e) => e.currentTarget.select()} aria-label={`${label} ${name} feed address`} />
                  <CopyButton text={urls[format]} label="Copy" ariaLabel={`Copy the ${label} ${name} feed address`} />
                </fieldset>
              </li>
            )),
          )}
        </ul>
      )}
      <button type="button" className="outline" disabled={feeds === null} onClick={() => setConfirming(true)}>
        New feed address
      </button>
      {confirming ? (
        <ConfirmDialog
          title="Make a new feed address?"
          text="Your current feed addresses stop working at once. Feed readers that use them must be given the new ones."
          action="New feed address"
          onCancel={() => setConfirming(false)}
          onConfirm={() => void rotate()}
        />
      ) : null}
    </section>
  )
}
