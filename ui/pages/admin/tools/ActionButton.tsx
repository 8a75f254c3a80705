// Admin → Tools: a button that runs one action and stays busy (aria-busy, disabled) until it ends.
import { useState } from 'react'

/** A button that runs one admin action and keeps itself busy meanwhile. */
export function ActionButton({ label, run, className }: { label: string; run: () => Promise<unknown>; className?: string }) {
  const [busy, setBusy] = useState(false)
  return (
    <button
      type="button"
      className={className}
      aria-busy={busy}
      disabled={busy}
      onClick={async () => {
        setBusy(true)
        try {
          await run()
        } finally {
          setBusy(false)
        }
      }}
    >
      {label}
    </button>
  )
}
