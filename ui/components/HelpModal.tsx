// Help & FAQ (spec §2): three questions, then the Contact Us form (subject + message, both
// required after trimming: 'Missing Information'), posted to POST /api/contact.
import { useState } from 'react'
import { api } from '../api'
import { toast } from '../toast'
import { Modal } from './Modal'

export const HELP_FAQ: [string, string][] = [
  [
    'How do search terms work?',
    'Save words you are looking for, like "glock 19". A new post matches when its title or text contains all of them. Use quotes for an exact phrase, -word to exclude, trij* for a prefix, a | b for either, and <$500 for a price bound.',
  ],
  [
    'How quickly will I see matches?',
    'New posts are checked roughly every 1 to 2 minutes; matches appear here live, and by email or push if you turned those on.',
  ],
  ['How many search terms can I save?', 'Up to 10 per category on every plan (WTS, WTB and Gundeals each have their own list).'],
]

export function HelpModal({ onClose }: { onClose: () => void }) {
  const [subject, setSubject] = useState('')
  const [message, setMessage] = useState('')
  const [sending, setSending] = useState(false)
  const send = async (e: React.FormEvent) => {
    e.preventDefault()
    if (!subject.trim() || !message.trim()) {
      toast({ title: 'Missing Information', description: 'Please enter a subject and your message.', variant: 'destructive' })
      return
    }
    setSending(true)
    try {
      await api('/api/contact', { method: 'POST', json: { subject: subject.trim(), message: message.trim() } })
      toast({ title: 'Message sent', description: "Thanks! We'll get back to you by email." })
      setSubject('')
      setMessage('')
    } catch {
      toast({ title: 'Error', description: 'Failed to send message. Please try again.', variant: 'destructive' })
    } finally {
      setSending(false)
    }
  }
  return (
    <Modal onClose={onClose} aria-labelledby="help-title">
      <article>
        <header>
          <button type="button" aria-label="Close" rel="prev" className="close-x" onClick={onClose} />
          <h3 id="help-title">Help &amp; FAQ</h3>
        </header>
        {HELP_FAQ.map(([q, a]) => (
          <details key={q}>
            <summary>{q}</summary>
            <p>{a}</p>
          </details>
        ))}
        <h4>Contact Us</h4>
        <form onSubmit={send} noValidate>
          <input name="subject" placeholder="Subject" aria-label="Subject" value={subject} onChange={(e) => setSubject(e.target.value)} maxLength={200} />
          <textarea
            name="message"
            placeholder="Message"
            aria-label="Message"
            rows={4}
            value={message}
            onChange={(e) => setMessage(e.target.value)}
            maxLength={5000}
          />
          <button type="submit" aria-busy={sending} disabled={sending}>
            Send Message
          </button>
        </form>
      </article>
    </Modal>
  )
}
