// The Contact Us form (spec Help & FAQ: subject + message, both required after trimming: 'Missing
// Information'), posted to POST /api/contact: the Help modal and, with billing off, the way a
// locked-out account writes to the administrator (ContactAdmin).
import { useState } from 'react'
import { api, call } from '../client'
import { toast } from '../toast'

export function ContactForm() {
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
      await call(api.contact.post({ subject: subject.trim(), message: message.trim() }))

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
  )
}
