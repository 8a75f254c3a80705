// An in-process event bus, typed by an event map. Dibs uses one per process with the contract's
// BusEvents (src/contract/events.ts); every listener is attached in src/services.ts.
type Listener<T> = (data: T) => void

export class EventBus<Events extends Record<string, unknown>> {
  private listeners = new Map<keyof Events, Set<Listener<never>>>()

  on<K extends keyof Events>(name: K, fn: Listener<Events[K]>): () => void {
    let set = this.listeners.get(name)
    if (!set) this.listeners.set(name, (set = new Set()))
    set.add(fn as Listener<never>)
    return () => set!.delete(fn as Listener<never>)
  }

  /** Delivers synchronously; one failing listener never stops the others. */
  emit<K extends keyof Events>(name: K, data: Events[K]) {
    for (const fn of this.listeners.get(name) ?? []) {
      try {
        ;(fn as Listener<Events[K]>)(data)
      } catch (err) {
        console.error(`bus listener for ${String(name)} failed:`, err)
      }
    }
  }
}
