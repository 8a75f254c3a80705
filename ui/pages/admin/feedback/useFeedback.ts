// Admin → Feedback, fetching and state: the inbox for a filter and page (GET /api/admin/feedback), and
// one message's actions (mark read / unread / resolved / unresolved, reply by email). The page
// (../Feedback.tsx) only renders.
import { useCallback, useEffect, useState } from 'react'
import { api, ApiError } from '../../../api'
import { toast, errorToast } from '../../../toast'

export type State = 'unread' | 'read' | 'resolved'
export type Message = {
  id: number
  userId: number | null
  email: string
  subject: string
  message: string
  createdAt: string
  readAt: string | null
  resolvedAt: string | null
  repliedAt: string | null
  reply: string | null
  state: State
}
export type Inbox = { messages: Message[]; counts: Record<'all' | State, number>; page: number; pages: number }
export type Filter = 'all' | State

export function useFeedbackInbox() {
  const [filter, setFilter] = useState<Filter>('unread')
  const [page, setPage] = useState(1)
  const [inbox, setInbox] = useState<Inbox | null>(null)
  const [error, setError] = useState<string | null>(null)
  const load = useCallback(async () => {
    try {
      setInbox(await api<Inbox>(`/api/admin/feedback?filter=${filter}&page=${page}`))
      setError(null)
    } catch (err) {
      setError(err instanceof ApiError ? err.message : 'Failed to load messages.')
    }
  }, [filter, page])
  useEffect(() => void load(), [load])
  /** Another filter starts at its first page. */
  const showFilter = (next: Filter) => {
    setFilter(next)
    setPage(1)
  }
  return { filter, showFilter, setPage, inbox, error, reload: load }
}

export function useFeedbackMessage(m: Message, onChanged: () => void) {
  const [replying, setReplying] = useState(false)
  const [reply, setReply] = useState('')
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const setState = async (state: 'unread' | 'read' | 'resolved' | 'unresolved') => {
    try {
      await api(`/api/admin/feedback/${m.id}/state`, { method: 'POST', json: { state } })
      onChanged()
    } catch (err) {
      errorToast(err instanceof ApiError ? err.message : 'Failed to update the message.')
    }
  }
  const send = async () => {
    setBusy(true)
    setError(null)
    try {
      await api(`/api/admin/feedback/${m.id}/reply`, { method: 'POST', json: { reply } })
      toast({ title: 'Reply sent', description: `Your reply to ${m.email} is on its way.` })
      setReplying(false)
      setReply('')
      onChanged()
    } catch (err) {
      setError(err instanceof ApiError ? err.message : 'Failed to send the reply.')
    } finally {
      setBusy(false)
    }
  }
  return { replying, setReplying, reply, setReply, busy, error, setState, send }
}
