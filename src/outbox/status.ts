// The outbox row's status and the transitions between them (issue 29 §1). Every statement that
// writes the `outbox` table is one function of ./store.ts named for its transition; no other folder
// writes the table (src/db/owners.json, `bun run check:sql`). A pure leaf: src/db/schema.ts types
// the column with OutboxStatus.
export const OUTBOX_STATUSES = ['pending', 'sending', 'sent', 'failed', 'held', 'waiting', 'skipped'] as const
export type OutboxStatus = (typeof OUTBOX_STATUSES)[number]

/** A transition: the statuses a row may have before it (`new`: the row is inserted) and after it (`gone`: deleted). */
export type Transition = { from: readonly (OutboxStatus | 'new')[]; to: readonly (OutboxStatus | 'gone')[]; by: string }

/** Every transition, named as ./store.ts names its function; docs/ARCHITECTURE.md shows this table. */
export const OUTBOX_TRANSITIONS = {
  enqueue: { from: ['new'], to: ['pending'], by: 'every email, push and channel message (src/notify, src/auth, src/billing)' },
  hold: { from: ['new'], to: ['held'], by: "the dispatcher: quiet hours, a channel's cap per minute (src/notify)" },
  claim: { from: ['pending'], to: ['sending'], by: 'the worker, due rows, the attempt counted, before any network call' },
  markSent: { from: ['sending'], to: ['sent'], by: 'the worker: the provider accepted it' },
  retryLater: { from: ['sending'], to: ['pending'], by: 'the worker: a failed attempt, due again after the backoff' },
  markFailed: { from: ['sending'], to: ['failed'], by: 'the worker: a permanent failure, or the 15th attempt' },
  recover: { from: ['sending'], to: ['pending', 'failed'], by: 'startup: rows a killed process left sending are maybe sent' },
  requeue: { from: ['failed'], to: ['pending'], by: 'an admin: retry one or all failed rows' },
  wait: { from: ['pending'], to: ['waiting'], by: "the dispatcher: a user's wait before email and push (src/notify/hold.ts)" },
  release: { from: ['waiting'], to: ['pending'], by: 'the re-check: the post is still there, or the wait is over' },
  skip: { from: ['waiting'], to: ['skipped'], by: 'the re-check: the post was removed or sold during the wait' },
  cancel: { from: ['pending', 'held', 'waiting'], to: ['skipped'], by: "a re-read found the post removed or sold: its matches' email and push" },
  fold: { from: ['held'], to: ['sent', 'failed'], by: 'the quiet-hours summary carried the rows (failed: the user is no longer active)' },
  prune: { from: ['sent'], to: ['gone'], by: 'the daily outbox-prune job, 30 days after sending' },
} as const satisfies Record<string, Transition>

export type TransitionName = keyof typeof OUTBOX_TRANSITIONS
