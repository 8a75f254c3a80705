// The in-process event bus between the matcher, the socket hub and the notifier.
// Message names are the WebSocket contract of DESIGN.md.
export type BusEvents = {
  'post.new': { post: Record<string, unknown> }
  'match.new': { userId: number; match: Record<string, unknown>; notify: boolean }
  'match.updated': { userId: number; ids: number[]; change: 'read' | 'archived' | 'removed' }
  unread: { userId: number; counts: { wts: number; wtb: number; gd: number } }
  'access.changed': { userId: number }
  'settings.changed': { name: string; active: boolean }
  'scan.metric': { metric: Record<string, unknown> }
  'scan.next': { at: string }
}
export type BusEventName = keyof BusEvents
type Listener<K extends BusEventName> = (data: BusEvents[K]) => void

export class EventBus {
  private listeners = new Map<BusEventName, Set<Listener<any>>>()

  on<K extends BusEventName>(name: K, fn: Listener<K>): () => void {
    let set = this.listeners.get(name)
    if (!set) this.listeners.set(name, (set = new Set()))
    set.add(fn)
    return () => set!.delete(fn)
  }

  /** Delivers synchronously; one failing listener never stops the others. */
  emit<K extends BusEventName>(name: K, data: BusEvents[K]) {
    for (const fn of this.listeners.get(name) ?? []) {
      try {
        fn(data)
      } catch (err) {
        console.error(`bus listener for ${name} failed:`, err)
      }
    }
  }
}
