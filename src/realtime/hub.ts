// The WebSocket hub: which socket belongs to whom, which topics it follows, and the bridge that
// forwards bus events to topics. Topics: `feed` (anyone: the public live feed), `user:<id>`
// (a signed-in user's matches, unread counts and access), `admin` (admins: scans and settings).
// Publishing goes through the Bun server (ws.publish would skip the sending socket).
import type { Server } from 'bun'
import { eq } from 'drizzle-orm'
import { users, userAccess } from '../db/schema'
import type { Deps } from '../deps'
import { accessStateOf, validateSession } from '../auth/session'
import type { BusEventName, BusEvents } from './bus'

export type Peer = { id: string; userId: number | null; admin: boolean; subscribe(topic: string): void; unsubscribe(topic: string): void }

export const FEED = 'feed'
export const ADMIN = 'admin'
export const userTopic = (id: number) => `user:${id}`

/** Where each bus event goes. Per-user events go to that user's topic only. */
export function topicsFor<K extends BusEventName>(name: K, data: BusEvents[K]): string[] {
  switch (name) {
    case 'post.new':
      return [FEED]
    case 'scan.next':
      return [FEED, ADMIN]
    case 'scan.metric':
    case 'settings.changed':
      return [ADMIN]
    default:
      return [userTopic((data as { userId: number }).userId)]
  }
}

/** What a socket may see of an event: the user id is implied by the topic and not repeated. */
function payloadOf(name: BusEventName, data: Record<string, unknown>): unknown {
  if ('userId' in data) {
    const { userId: _u, notify: _n, ...rest } = data
    return rest
  }
  return data
}

export class Hub {
  server: Server<unknown> | null = null
  private peers = new Map<string, Peer>()
  private off: (() => void)[] = []

  constructor(private deps: Deps) {
    const names: BusEventName[] = ['post.new', 'match.new', 'match.updated', 'unread', 'access.changed', 'settings.changed', 'scan.metric', 'scan.next']
    for (const name of names) this.off.push(deps.bus.on(name, (data) => this.forward(name, data)))
    this.off.push(deps.bus.on('access.changed', ({ userId }) => this.reevaluate(userId)))
  }

  /** Resolves the cookie's user and joins the socket's topics; returns who it is. */
  join(peer: Omit<Peer, 'userId' | 'admin'>, cookieToken: string | null): Peer {
    const session = cookieToken ? validateSession(this.deps, cookieToken) : null
    const full: Peer = { ...peer, userId: session?.user.id ?? null, admin: session?.access.role === 'admin' }
    full.subscribe(FEED)
    if (full.userId !== null) full.subscribe(userTopic(full.userId))
    if (full.admin) full.subscribe(ADMIN)
    this.peers.set(full.id, full)
    return full
  }

  leave(id: string) {
    this.peers.delete(id)
  }

  get size() {
    return this.peers.size
  }

  publish(topic: string, type: string, data: unknown) {
    this.server?.publish(topic, JSON.stringify({ type, data }))
  }

  private forward<K extends BusEventName>(name: K, data: BusEvents[K]) {
    const payload = payloadOf(name, data as Record<string, unknown>)
    for (const topic of topicsFor(name, data)) this.publish(topic, name, payload)
  }

  /** A role change may grant or revoke the admin topic on the user's open sockets. */
  private reevaluate(userId: number) {
    const admin = this.isAdmin(userId)
    for (const peer of this.peers.values()) {
      if (peer.userId !== userId || peer.admin === admin) continue
      if (admin) peer.subscribe(ADMIN)
      else peer.unsubscribe(ADMIN)
      peer.admin = admin
    }
  }

  private isAdmin(userId: number): boolean {
    const row = this.deps.db.select({ email: users.email, access: userAccess }).from(users).leftJoin(userAccess, eq(userAccess.userId, users.id)).where(eq(users.id, userId)).get()
    if (row === undefined) return false
    return accessStateOf(this.deps, row.email, row.access).role === 'admin'
  }

  close() {
    for (const off of this.off) off()
    this.off = []
    this.peers.clear()
  }
}
