// A button that copies a text shown once (a two-factor key, recovery codes, a push source's secret) and says so;
// where the clipboard is not allowed, the text stays selectable and a toast says to copy it by hand.
import { useState } from 'react'
import { toast } from '../toast'

export function CopyButton({ text, label, className }: { text: string; label: string; className?: string }) {
  const [copied, setCopied] = useState(false)
  async function copy() {
    try {
      await navigator.clipboard.writeText(text)
      setCopied(true)
      setTimeout(() => setCopied(false), 2000)
    } catch {
      toast({ title: 'Copy failed', description: 'Select the text and copy it yourself.', variant: 'destructive' })
    }
  }
  return (
    <button type="button" className={`secondary outline ${className ?? ''}`} onClick={copy} aria-live="polite">
      {copied ? 'Copied' : label}
    </button>
  )
}
