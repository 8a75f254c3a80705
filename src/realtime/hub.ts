// The WebSocket hub: which socket belongs to whom, which topics it follows, and how socket events
// map to topics (the bus listeners that feed it are attached in src/services.ts). Topics: `feed` (anyone: the public live feed), `user:<id>`
// (a signed-in user's matches, unread counts and access), `admin` (admins: scans and settings).
// Publishing goes through the Bun server (ws.publish would skip the sending socket).
import type { Server } from 'bun'
import { userWithAccess } from '../access/state'
import { sessionAlive, type ValidSession } from '../auth/session'
import { tokenAlive, type TokenSession } from '../auth/access-tokens'
import { RESYNC_CLOSE, SESSION_REVOKED_CLOSE, TOKEN_REVOKED_CLOSE, type SocketEventName, type SocketEvents, type SocketPayload } from '../contract/events'
import type { Deps } from '../deps'
import { log } from '../lib/log'

export type Peer = {
  id: string
  userId: number | null
  /** the stored id of the session the socket opened with */
  sessionId: string | null
  /** the personal access token it opened with (such a socket never joins the admin topic) */
  tokenId: number | null
  admin: boolean
  subscribe(topic: string): void
  unsubscribe(topic: string): void
  close(code: number, reason: string): void
}

export const FEED = 'feed'
export const ADMIN = 'admin'
export const userTopic = (id: number) => `user:${id}`

/** Where each bus event goes. Per-user events go to that user's topic only. */
export function topicsFor<K extends SocketEventName>(name: K, data: SocketEvents[K]): string[] {
  switch (name) {
    case 'post.new':
      return [FEED]
    case 'scan.next':
      return [FEED, ADMIN]
    case 'scan.metric':
    case 'settings.changed':
      return [ADMIN]
    case 'post.updated':
      // the landing feed shows every post; each matched user's cards show it too
      return [FEED, ...(data as SocketEvents['post.updated']).userIds.map(userTopic)]
    case 'match.new':
    case 'match.updated':
    case 'unread':
    case 'access.changed':
    default:
      return [userTopic((data as { userId: number }).userId)]
  }
}

/** What a socket may see of an event: the user id is implied by the topic and not repeated. */
function payloadOf<K extends SocketEventName>(data: SocketEvents[K]): SocketPayload<K> {
  if ('userIds' in data) {
    const { userIds: _ids, ...rest } = data as SocketEvents[K] & { userIds: number[] }
    return rest as SocketPayload<K>
  }
  if ('userId' in data) {
    const { userId: _u, notify: _n, ...rest } = data as SocketEvents[K] & { userId: number; notify?: boolean }
    return rest as SocketPayload<K>
  }
  return data
}

export class Hub {
  server: Server<unknown> | null = null
  private peers = new Map<string, Peer>()
  /** token sockets' expiry timers, by peer id */
  private expiries = new Map<string, ReturnType<typeof setTimeout>>()

  constructor(private deps: Pick<Deps, 'db' | 'now' | 'config'>) {}

  /** Joins the socket's topics as the cookie's session (or the token's; both already checked); returns who it is. */
  join(peer: Omit<Peer, 'userId' | 'admin' | 'sessionId' | 'tokenId'>, cookieSession: ValidSession | null, token: TokenSession | null = null): Peer {
    const session = token ?? cookieSession
    const full: Peer = {
      ...peer,
      userId: session?.user.id ?? null,
      sessionId: token === null ? (session?.sessionId ?? null) : null,
      tokenId: token?.token.id ?? null,
      admin: token === null && session?.access.role === 'admin',
    }
    full.subscribe(FEED)
    if (full.userId !== null) full.subscribe(userTopic(full.userId))
    if (full.admin) full.subscribe(ADMIN)
    this.peers.set(full.id, full)
    if (token?.token.expiresAt) this.closeAtExpiry(full, token.token.expiresAt.getTime())
    return full
  }

  leave(id: string) {
    this.peers.delete(id)
    clearTimeout(this.expiries.get(id))
    this.expiries.delete(id)
  }

  /** A token socket closes when its token expires (re-armed while the token still lives: long waits, clock drift). */
  private closeAtExpiry(peer: Peer, at: number) {
    const wait = Math.min(Math.max(0, at - this.deps.now().getTime()), 2 ** 31 - 1)
    this.expiries.set(
      peer.id,
      setTimeout(() => {
        this.expire(peer, at).catch((err: unknown) => log.error('token socket expiry check failed', { error: String(err) }))
      }, wait + 1),
    )
  }

  private async expire(peer: Peer, at: number): Promise<void> {
    if (!this.peers.has(peer.id)) return
    if (peer.tokenId !== null && (await tokenAlive(this.deps, peer.tokenId))) return this.closeAtExpiry(peer, at)
    if (!this.peers.has(peer.id)) return
    this.leave(peer.id)
    peer.close(TOKEN_REVOKED_CLOSE.code, TOKEN_REVOKED_CLOSE.reason)
  }

  get size() {
    return this.peers.size
  }

  publish(topic: string, type: string, data: unknown) {
    this.server?.publish(topic, JSON.stringify({ type, data }))
  }

  /** Sends a socket event to its topics. */
  forward<K extends SocketEventName>(name: K, data: SocketEvents[K]) {
    const payload = payloadOf(data)
    for (const topic of topicsFor(name, data)) this.publish(topic, name, payload)
  }

  /** A role change may grant or revoke the admin topic on the user's open sockets. */
  async reevaluate(userId: number): Promise<void> {
    const admin = await this.isAdmin(userId)
    for (const peer of this.peers.values()) {
      if (peer.userId !== userId || peer.tokenId !== null || peer.admin === admin) continue
      if (admin) peer.subscribe(ADMIN)
      else peer.unsubscribe(ADMIN)
      peer.admin = admin
    }
  }

  /** Sessions or tokens of the user ended: close each of their sockets whose session or token is gone (4401, the tab signs out). */
  async revoked(userId: number): Promise<void> {
    for (const peer of [...this.peers.values()]) {
      if (peer.userId !== userId) continue
      if (peer.tokenId !== null) {
        if ((await tokenAlive(this.deps, peer.tokenId)) || !this.peers.has(peer.id)) continue
        this.leave(peer.id)
        peer.close(TOKEN_REVOKED_CLOSE.code, TOKEN_REVOKED_CLOSE.reason)
        continue
      }
      if (peer.sessionId === null || (await sessionAlive(this.deps, peer.sessionId)) || !this.peers.has(peer.id)) continue
      this.peers.delete(peer.id)
      peer.close(SESSION_REVOKED_CLOSE.code, SESSION_REVOKED_CLOSE.reason)
    }
  }

  private async isAdmin(userId: number): Promise<boolean> {
    return (await userWithAccess(this.deps, userId))?.access.role === 'admin'
  }

  /** Every socket of this node closes with RESYNC_CLOSE: the clients reconnect and refetch what they missed (a fan-out gap, src/cluster/node.ts). */
  resync(): number {
    const all = [...this.peers.values()]
    for (const peer of all) {
      this.leave(peer.id)
      peer.close(RESYNC_CLOSE.code, RESYNC_CLOSE.reason)
    }
    return all.length
  }

  close() {
    for (const timer of this.expiries.values()) clearTimeout(timer)
    this.expiries.clear()
    this.peers.clear()
  }
}
