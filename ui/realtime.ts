// The browser's end of GET /api/ws (spec §4 connection check, §9 limits).
// States: checking → success (the server said hello) | error. After an error up to 3 automatic
// reconnects, 3 s apart; each first refreshes the session, and the counter resets on success.
// The check runs on first load and again 100 ms after the tab becomes visible. Anything missed
// while disconnected is recovered by listeners of 'reconnected', which refetch.
import { effect, signal } from '@preact/signals-react'
import { SESSION_REVOKED_CLOSE, type SocketMessages } from '../src/contract/events'
import { me } from './account'

/**
 * The server's messages plus the client's own: 'reconnected' after a drop, 'gave-up' after the
 * last retry, 'session-revoked' when the server closed the socket because its session ended.
 */
export type UiMessages = SocketMessages & { reconnected: null; 'gave-up': null; 'session-revoked': null }
export type UiMessageType = keyof UiMessages

export type ConnectionState = 'checking' | 'success' | 'error'
export const RECONNECT_ATTEMPTS = 3
export const RECONNECT_DELAY_MS = 3000
export const VISIBILITY_DELAY_MS = 100
export const SESSION_PROTECTED_KEY = 'session_protected'
export const SESSION_PROTECTED_MS = 30_000

export const connection = signal<ConnectionState>('checking')
/** Whom the server recognised on this socket (null: anonymous). */
export const socketUser = signal<number | null | undefined>(undefined)
export const reconnectsLeft = signal(RECONNECT_ATTEMPTS)

// Stored untyped: onMessage ties each handler to its message type, dispatch only passes data along.
type Handler = (data: unknown) => void
const handlers = new Map<string, Set<Handler>>()
let ws: WebSocket | null = null
let attempts = 0
let timer: ReturnType<typeof setTimeout> | null = null
let everConnected = false
let started = false
let beforeReconnect: () => Promise<unknown> = async () => {}

/** Subscribes to a message type ('post.new', 'match.new', …, or 'reconnected'); returns the unsubscribe. */
export function onMessage<K extends UiMessageType>(type: K, fn: (data: UiMessages[K]) => void): () => void {
  const handler = fn as Handler
  let set = handlers.get(type)
  if (!set) handlers.set(type, (set = new Set()))
  set.add(handler)
  return () => void set!.delete(handler)
}

function dispatch(type: string, data: unknown) {
  for (const fn of handlers.get(type) ?? []) {
    try {
      fn(data)
    } catch (err) {
      console.error(`realtime handler for ${type} failed`, err)
    }
  }
}

function socketUrl() {
  const { protocol, host } = window.location
  return `${protocol === 'https:' ? 'wss' : 'ws'}://${host}/api/ws`
}

function open() {
  if (timer) clearTimeout(timer)
  timer = null
  const socket = new WebSocket(socketUrl())
  ws = socket
  connection.value = 'checking'
  socket.onmessage = (e) => {
    let msg: { type: string; data: unknown }
    try {
      msg = JSON.parse(String(e.data))
    } catch {
      return
    }
    if (msg.type === 'hello') {
      const wasReconnect = everConnected
      everConnected = true
      attempts = 0
      reconnectsLeft.value = RECONNECT_ATTEMPTS
      socketUser.value = (msg.data as SocketMessages['hello']).userId
      connection.value = 'success'
      if (wasReconnect) dispatch('reconnected', null)
      return
    }
    dispatch(msg.type, msg.data)
  }
  socket.onclose = (e?: CloseEvent) => {
    if (ws !== socket) return // replaced on purpose
    ws = null
    if (e?.code === SESSION_REVOKED_CLOSE.code) {
      // Signed out elsewhere (all devices, password change, ban): this tab signs out and listens on as a visitor.
      socketUser.value = null
      dispatch('session-revoked', null)
      open()
      return
    }
    connection.value = 'error'
    scheduleReconnect()
  }
}

function scheduleReconnect() {
  if (attempts >= RECONNECT_ATTEMPTS) {
    dispatch('gave-up', null)
    return
  }
  attempts++
  reconnectsLeft.value = RECONNECT_ATTEMPTS - attempts
  const reconnect = async () => {
    try {
      await beforeReconnect()
    } catch {}
    open()
  }
  timer = setTimeout(() => void reconnect(), RECONNECT_DELAY_MS)
}

/** Starts the socket once per page (idempotent). `refresh` runs before every reconnect. */
export function startRealtime(opts: { refresh?: () => Promise<unknown> } = {}) {
  if (opts.refresh) beforeReconnect = opts.refresh
  if (started) return
  started = true
  clearProtectedFlagLater()
  open()
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState !== 'visible') return
    setTimeout(() => {
      if (ws === null || ws.readyState === WebSocket.CLOSED || ws.readyState === WebSocket.CLOSING) recheck()
    }, VISIBILITY_DELAY_MS)
  })
}

/** A fresh check now with a fresh set of attempts (tab visible again, sign-in changed). */
export function recheck() {
  attempts = 0
  reconnectsLeft.value = RECONNECT_ATTEMPTS
  const old = ws
  ws = null
  old?.close()
  open()
}

/** 'Reload' in the connection panel: mark the reload as deliberate so session guards keep the session. */
export function manualReload() {
  try {
    localStorage.setItem(SESSION_PROTECTED_KEY, String(Date.now()))
  } catch {}
  window.location.reload()
}

function clearProtectedFlagLater() {
  try {
    if (localStorage.getItem(SESSION_PROTECTED_KEY) === null) return
  } catch {
    return
  }
  setTimeout(() => {
    try {
      localStorage.removeItem(SESSION_PROTECTED_KEY)
    } catch {}
  }, SESSION_PROTECTED_MS)
}

// The server picks a socket's topics at the handshake: when the signed-in user changes (sign-in
// without a reload, sign-out), reconnect so the socket follows the right user's topic.
effect(() => {
  const m = me.value
  if (!started || m === undefined) return
  const id = m?.user.id ?? null
  const current = socketUser.peek()
  if (current !== undefined && current !== id) recheck()
})
