// What crosses nodes, as a NOTIFY payload (issue 29 §3; src/cluster/fanout.ts sends and receives it).
// Every bus event a socket needs, plus sessions.revoked (a user's sockets may be open on any node),
// is announced by reference: the ids another node needs to read it back from the shared database,
// never the body. Pure: the payload's shape, its size and its parsing.
//
// Payload: JSON `{"o":<node id>,"e":<event name>,"r":<ref>}`. PostgreSQL refuses a payload of 8000
// bytes or more; a ref is a few ids and short words, so only match.updated (a list of match ids: "mark
// all read" on a long list) can grow, and it is split into several notifications, in order, each
// under the limit. Anything else over the limit is a bug and throws.
import { RELAYED_EVENTS, type BusEvents, type MatchChange, type SettingName } from '../contract/events'

/** The ref each crossing event carries: what `load` needs to rebuild the event from the database. */
export type FanoutRefs = {
  /** the post's row */
  'post.new': { postId: number }
  /** the match's row; the rebuilt event has notify: false (the publishing node's dispatcher already sent the alert) */
  'match.new': { userId: number; matchId: number }
  /** ids and change word as emitted: the change is not stored, so these travel (split when long) */
  'match.updated': { userId: number; ids: number[]; change: MatchChange }
  /** counts are read again */
  unread: { userId: number }
  'access.changed': { userId: number }
  /** the state is read again from settings */
  'settings.changed': { name: SettingName }
  /** the scan_metrics row */
  'scan.metric': { metricId: number }
  /** the scanner's next run time exists only on the node that scans: the time itself travels */
  'scan.next': { at: string }
  /** the post's row; the users with a match on it are read again (that list can be long) */
  'post.updated': { postId: number }
  'sessions.revoked': { userId: number }
}
export type FanoutEventName = keyof FanoutRefs

/** The events that cross nodes: every socket event and sessions.revoked, as a CLI relays them to its server. */
export const FANOUT_EVENTS = RELAYED_EVENTS as readonly FanoutEventName[]

/** PostgreSQL's limit on a NOTIFY payload is 8000 bytes (below it); a little room kept. */
export const MAX_PAYLOAD_BYTES = 7900

export type Notice = { o: string; e: FanoutEventName; r: FanoutRefs[FanoutEventName] }

/** The ref of a bus event as emitted on the node where it happened. */
export function refOf<K extends FanoutEventName>(name: K, data: BusEvents[K]): FanoutRefs[K] {
  const d = data as BusEvents[FanoutEventName]
  const ref = ((): FanoutRefs[FanoutEventName] => {
    switch (name) {
      case 'post.new':
        return { postId: (d as BusEvents['post.new']).post.id }
      case 'match.new': {
        const { userId, match } = d as BusEvents['match.new']
        return { userId, matchId: match.id }
      }
      case 'match.updated': {
        const { userId, ids, change } = d as BusEvents['match.updated']
        return { userId, ids, change }
      }
      case 'settings.changed':
        return { name: (d as BusEvents['settings.changed']).name }
      case 'scan.metric':
        return { metricId: (d as BusEvents['scan.metric']).metric.id }
      case 'scan.next':
        return { at: (d as BusEvents['scan.next']).at }
      case 'post.updated':
        return { postId: (d as BusEvents['post.updated']).post.postId }
      case 'unread':
      case 'access.changed':
      case 'sessions.revoked':
        return { userId: (d as { userId: number }).userId }
    }
  })()
  return ref as FanoutRefs[K]
}

const bytes = (s: string) => Buffer.byteLength(s, 'utf8')

/** The payloads announcing one event, in order: one, or several when a match.updated list is long. */
export function encode<K extends FanoutEventName>(nodeId: string, name: K, ref: FanoutRefs[K]): string[] {
  const payload = JSON.stringify({ o: nodeId, e: name, r: ref })
  if (bytes(payload) <= MAX_PAYLOAD_BYTES) return [payload]
  const ids = name === 'match.updated' ? (ref as FanoutRefs['match.updated']).ids : []
  if (ids.length < 2) throw new Error(`fan-out: the ${name} notice is ${bytes(payload)} bytes, over PostgreSQL's limit`)
  const half = Math.ceil(ids.length / 2)
  const part = (list: number[]) => encode(nodeId, name, { ...(ref as FanoutRefs['match.updated']), ids: list } as FanoutRefs[K])
  return [...part(ids.slice(0, half)), ...part(ids.slice(half))]
}

/** A payload read back; null for anything this version does not know (another program on the channel, a newer node). */
export function decode(payload: string): Notice | null {
  let v: unknown
  try {
    v = JSON.parse(payload)
  } catch {
    return null
  }
  if (typeof v !== 'object' || v === null) return null
  const { o, e, r } = v as Record<string, unknown>
  if (typeof o !== 'string' || typeof r !== 'object' || r === null || !FANOUT_EVENTS.includes(e as FanoutEventName)) return null
  return { o, e: e as FanoutEventName, r: r as Notice['r'] }
}
