// Admin → Feedback, fetching and state: the inbox for a filter and page (GET /api/admin/feedback), and
// one message's actions (mark read / unread / resolved / unresolved, reply by email). The page
// (../Feedback.tsx) only renders.
import { useCallback, useEffect, useState } from 'react'
import { api, ApiError, call, type Answer } from '../../../client'
import { toast, errorToast } from '../../../toast'

export type Inbox = Answer<typeof api.admin.feedback.get>
export type Message = Inbox['messages'][number]
export type State = Message['state']

export type Filter = 'all' | State

export function useFeedbackInbox() {
  const [filter, setFilter] = useState<Filter>('unread')
  const [page, setPage] = useState(1)
  const [inbox, setInbox] = useState<Inbox | null>(null)
  const [error, setError] = useState<string | null>(null)
  const load = useCallback(async () => {
    try {
      setInbox(await call(api.admin.feedback.get({ query: { filter, page } })))
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
      await call(api.admin.feedback({ id: m.id }).state.post({ state }))
      onChanged()
    } catch (err) {
      errorToast(err instanceof ApiError ? err.message : 'Failed to update the message.')
    }
  }
  const send = async () => {
    setBusy(true)
    setError(null)
    try {
      await call(api.admin.feedback({ id: m.id }).reply.post({ reply }))

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
