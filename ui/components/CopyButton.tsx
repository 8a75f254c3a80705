// A 'Copy' button: copies to the clipboard and says so ('Copied' for 2 s); where the clipboard is not
// allowed, a toast says to copy by hand (the text stays selectable where it is shown).
import { useState } from 'react'
import { toast } from '../toast'

export function CopyButton({ text, label, className, ariaLabel }: { text: string; label: string; className?: string; ariaLabel?: string }) {
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
    <button type="button" className={`secondary outline ${className ?? ''}`} onClick={copy} aria-live="polite" aria-label={copied ? undefined : ariaLabel}>
      {copied ? 'Copied' : label}
    </button>
  )
}
