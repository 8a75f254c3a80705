// Saved search terms per category, with the spec's toasts (§5, §8). Client-side checks mirror the
// server's (limit, duplicates) so the user hears 'Too many terms' without a round trip; the server
// still decides and its error title/message are shown as they come.
import { dealsName } from './state'
import { signal } from '@preact/signals-react'
import type { Category } from '../src/access/categories'
import { api, ApiError, call } from './client'
import { toast } from './toast'

export type Term = {
  id: number
  term: string
  category: Category
  createdAt: string
  paused?: boolean
  /** per-term delivery (ui/components/TermDelivery.tsx) */
  delivery?: { email: 'default' | 'instant' | 'digest' | 'off'; push: boolean; endpoints: Record<string, boolean>; important?: boolean }
  /** ISO time, 'forever', or null */
  mutedUntil?: string | null
  alwaysNotify?: boolean
  /** why the term cannot match on this installation (no Reddit key: flair:, trades>=), else null */
  note?: string | null
}
/** A category's name in texts: WTS, WTB, or the deals forum's name ('Gundeals'). */
export const categoryLabel = (c: Category): string => (c === 'gd' ? dealsName() : c.toUpperCase())

export const terms = signal<Record<Category, Term[] | null>>({ wts: null, wtb: null, gd: null })
export const termLimits = signal<Record<Category, number>>({ wts: 10, wtb: 10, gd: 10 })
/** Bumped when a category's matches change because of its terms (backfill, removal). */
export const termsVersion = signal(0)

function set(category: Category, list: Term[]) {
  terms.value = { ...terms.value, [category]: list }
}

/** Puts a term the server answered in place of the listed one (ui/components/TermDelivery.tsx). */
export function replaceTerm(category: Category, term: Term) {
  set(
    category,
    (terms.value[category] ?? []).map((t) => (t.id === term.id ? term : t)),
  )
}

export async function loadTerms(category: Category) {
  try {
    const r = await call(api.terms.get({ query: { category } }))
    set(category, r.terms)
    termLimits.value = { ...termLimits.value, [category]: r.limit }
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) return
    toast({ title: 'Error', description: `Failed to load ${category.toUpperCase()} search terms`, variant: 'destructive' })
  }
}

export type AddResult = { ok: true } | { ok: false; inline?: string }

export async function addTerm(category: Category, raw: string): Promise<AddResult> {
  const text = raw.trim().toLowerCase()
  if (!text) return { ok: false }
  const list = terms.value[category] ?? []
  const max = termLimits.value[category]
  if (list.length >= max) {
    toast({ title: 'Too many terms', description: `You can only add a maximum of ${max} search terms.`, variant: 'destructive' })
    return { ok: false }
  }
  if (list.some((t) => t.term.toLowerCase() === text)) {
    toast({ title: 'Term already exists', description: 'This search term is already in your list', variant: 'destructive' })
    return { ok: false }
  }
  try {
    const r = await call(api.terms.post({ category, term: text }))
    set(category, [...(terms.value[category] ?? []), r.term])
    termsVersion.value++
    toast({ title: 'Term added', description: `"${r.term.term}" was added to your ${categoryLabel(category)} search terms.` })
    return { ok: true }
  } catch (err) {
    return termFailure(err, 'Error adding term', 'There was a problem adding your search term. Please try again.')
  }
}

/** A refused save or edit: a parse error goes inline, a titled server error as its toast, anything else as `fallback`. */
function termFailure(err: unknown, fallbackTitle: string, fallbackDescription: string): AddResult {
  if (err instanceof ApiError) {
    if (err.code === 'INVALID_TERM') return { ok: false, inline: err.message }
    const title = (err.body as { error?: { title?: string } })?.error?.title
    if (title) {
      toast({ title, description: err.message, variant: 'destructive' })
      return { ok: false }
    }
  }
  toast({ title: fallbackTitle, description: fallbackDescription, variant: 'destructive' })
  return { ok: false }
}

/** Edits a term in place and/or pauses or resumes it (PATCH /api/terms/:id); its matches stay. */
export async function updateTerm(category: Category, id: number, patch: { term?: string; paused?: boolean }): Promise<AddResult> {
  try {
    const r = await call(api.terms({ id }).patch(patch))
    set(
      category,
      (terms.value[category] ?? []).map((t) => (t.id === id ? r.term : t)),
    )
    if (patch.term !== undefined) termsVersion.value++ // an edited term may have backfilled matches
    const what = patch.term !== undefined ? 'updated' : r.term.paused ? 'paused' : 'resumed'
    toast({
      title: `Term ${what}`,
      description:
        what === 'paused'
          ? `"${r.term.term}" keeps its matches but finds no new ones until you resume it.`
          : `"${r.term.term}" is ${what === 'updated' ? 'saved' : 'active again'}.`,
    })
    return { ok: true }
  } catch (err) {
    return termFailure(err, 'Error updating term', 'There was a problem updating the search term. Please try again.')
  }
}

export async function removeTerm(category: Category, id: number) {
  try {
    await call(api.terms({ id }).delete())
    const removed = (terms.value[category] ?? []).find((t) => t.id === id)
    set(
      category,
      (terms.value[category] ?? []).filter((t) => t.id !== id),
    )
    termsVersion.value++
    toast({ title: 'Term removed', description: removed ? `"${removed.term}" was removed.` : undefined })
  } catch {
    toast({ title: 'Error removing term', description: 'There was a problem removing the search term. Please try again.', variant: 'destructive' })
  }
}

export async function clearTerms(category: Category) {
  try {
    await call(api.terms.delete({}, { query: { category } }))

    set(category, [])
    termsVersion.value++
    toast({ title: 'Terms cleared', description: `All ${categoryLabel(category)} search terms were removed.` })
  } catch {
    toast({ title: 'Error clearing terms', description: 'There was a problem clearing your search terms. Please try again.', variant: 'destructive' })
  }
}
