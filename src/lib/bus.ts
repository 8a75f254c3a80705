// An in-process event bus, typed by an event map. Dibs uses one per process with the contract's
// BusEvents (src/contract/events.ts); every listener is attached in src/services.ts.
/** A listener may be async (its statements await the database): a rejection is reported like a throw. */
type Listener<T> = (data: T) => unknown

export class EventBus<Events extends Record<string, unknown>> {
  private listeners = new Map<keyof Events, Set<Listener<never>>>()

  on<K extends keyof Events>(name: K, fn: Listener<Events[K]>): () => void {
    let set = this.listeners.get(name)
    if (!set) this.listeners.set(name, (set = new Set()))
    set.add(fn as Listener<never>)
    return () => set!.delete(fn as Listener<never>)
  }

  /** Delivers synchronously, in the order listeners were attached (an async listener runs to its first await); one failing listener never stops the others. */
  emit<K extends keyof Events>(name: K, data: Events[K]) {
    const failed = (err: unknown) => console.error(`bus listener for ${String(name)} failed:`, err)
    for (const fn of this.listeners.get(name) ?? []) {
      try {
        const done = (fn as Listener<Events[K]>)(data)
        if (done instanceof Promise) done.catch(failed)
      } catch (err) {
        failed(err)
      }
    }
  }
}
