// The trial made visible (issue 12 item 3, spec §2 subscription modal): a 'Trial: N days left'
// badge in the top bar, the trial status box of the subscription modal, and in the last 2 days a
// 'Your Trial is Ending Soon' prompt above the page (dismissed for the day).
import { useState } from 'react'
import { useSignals } from '@preact/signals-react/runtime'
import { useLocation } from 'wouter'
import { TRIAL_ENDING_DAYS } from '../../src/access/rules'
import { me } from '../account'
import { openModal } from '../modals'

const DISMISS_KEY = 'trial_prompt_dismissed'

export function trialDaysText(days: number): string {
  return days === 1 ? '1 day left' : `${days} days left`
}

/** Days left of a running trial, else null. */
function runningTrialDays(): number | null {
  const a = me.value?.access
  return a && a.userRole === 'app_trial' && a.hasAccess && typeof a.daysLeft === 'number' ? a.daysLeft : null
}

export function trialEnding(): boolean {
  const days = runningTrialDays()
  return days !== null && days <= TRIAL_ENDING_DAYS
}

export function TrialBadge() {
  useSignals()
  const days = runningTrialDays()
  if (days === null) return null
  return (
    <button
      type="button"
      className={`trial-badge${days <= TRIAL_ENDING_DAYS ? ' ending' : ''}`}
      data-testid="trial-badge"
      onClick={() => openModal('subscription')}
    >
      Trial: {trialDaysText(days)}
    </button>
  )
}

export function TrialStatusBox() {
  useSignals()
  const a = me.value?.access
  if (!a || (a.userRole !== 'app_trial' && a.userRole !== 'trial_expired')) return null
  const ends = a.accessExpiresAt ? new Date(a.accessExpiresAt) : null
  return (
    <section className="status-box" aria-label="Trial status" data-testid="trial-status">
      <strong>{a.hasAccess ? 'Free trial' : 'Free trial ended'}</strong>
      <p>
        {a.hasAccess && typeof a.daysLeft === 'number' ? `${trialDaysText(a.daysLeft)} · ` : ''}
        {ends ? `${a.hasAccess ? 'ends' : 'ended'} ${ends.toLocaleDateString(undefined, { month: 'short', day: 'numeric', year: 'numeric' })}` : ''}
      </p>
      <p className="muted">Choose a plan to keep your search terms working and get new matches after the trial.</p>
    </section>
  )
}

/** Pages that show the trial-concluding section themselves (ui/components/TrialConcluding.tsx). */
const CONCLUDING_PAGES = ['/dashboard/subscription', '/settings/subscription']

export function TrialEndingPrompt() {
  useSignals()
  const [location] = useLocation()
  const today = new Date().toISOString().slice(0, 10)
  const [dismissed, setDismissed] = useState(() => {
    try {
      return localStorage.getItem(DISMISS_KEY) === today
    } catch {
      return false
    }
  })
  const days = runningTrialDays()
  if (days === null || days > TRIAL_ENDING_DAYS || dismissed || CONCLUDING_PAGES.includes(location)) return null
  const dismiss = () => {
    try {
      localStorage.setItem(DISMISS_KEY, today)
    } catch {}
    setDismissed(true)
  }
  return (
    <aside className="trial-prompt" role="status" data-testid="trial-ending-prompt">
      <strong>Your Trial is Ending Soon</strong>
      <span>{trialDaysText(days)} of your free trial. Choose a plan to keep your alerts coming.</span>
      <button type="button" onClick={() => openModal('subscription')}>
        Choose a plan
      </button>
      <button type="button" className="outline secondary" onClick={dismiss}>
        Not now
      </button>
    </aside>
  )
}
