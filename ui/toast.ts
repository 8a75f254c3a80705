// Toasts (spec §8, §9): at most 10 shown at once, 5 s default duration, a dismissed toast is
// removed from the list 5 s after dismissal (it stays in the DOM, closed, so it can animate out).
// Anyone may call toast(); <Toaster/> (ui/components/Toaster.tsx) renders the list.
import { signal } from '@preact/signals-react'

export const TOAST_LIMIT = 10
export const TOAST_DEFAULT_DURATION = 5000
export const TOAST_REMOVE_DELAY = 5000

export type ToastInput = {
  title: string
  description?: string
  variant?: 'default' | 'destructive'
  /** ms before it dismisses itself; Infinity keeps it until dismissed. */
  duration?: number
}
export type ToastItem = ToastInput & { id: number; open: boolean; createdAt: number }

export const toasts = signal<ToastItem[]>([])

let nextId = 1
const timers = new Map<number, ReturnType<typeof setTimeout>>()

/** Shows a toast; returns its id. The newest is first; only the newest TOAST_LIMIT are kept. */
export function toast(input: ToastInput): number {
  const id = nextId++
  const item: ToastItem = { variant: 'default', ...input, id, open: true, createdAt: Date.now() }
  toasts.value = [item, ...toasts.value].slice(0, TOAST_LIMIT)
  const duration = input.duration ?? TOAST_DEFAULT_DURATION
  if (Number.isFinite(duration))
    timers.set(
      id,
      setTimeout(() => dismissToast(id), duration),
    )
  return id
}

/** Closes a toast now (or all of them); it leaves the list TOAST_REMOVE_DELAY later. */
export function dismissToast(id?: number) {
  const ids = id === undefined ? toasts.value.map((t) => t.id) : [id]
  toasts.value = toasts.value.map((t) => (ids.includes(t.id) ? { ...t, open: false } : t))
  for (const i of ids) {
    clearTimeout(timers.get(i))
    timers.set(
      i,
      setTimeout(() => {
        timers.delete(i)
        toasts.value = toasts.value.filter((t) => t.id !== i)
      }, TOAST_REMOVE_DELAY),
    )
  }
}

/** The error toast of spec §8: title 'Error', destructive, unless a title is given. */
export function errorToast(description: string, title = 'Error') {
  return toast({ title, description, variant: 'destructive' })
}
