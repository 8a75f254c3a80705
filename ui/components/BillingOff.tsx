// What the pages say while billing is off (no Stripe keys, issue 30 §5): nothing is sold, so no
// price or trial is promised that nobody could pay; new accounts get DEFAULT_PLAN free (or a trial,
// with DEFAULT_PLAN=none), and the administrator grants plans — ContactAdmin says how to reach them:
// the support address (SUPPORT_EMAIL) and the in-app contact form.
import { useSignals } from '@preact/signals-react/runtime'
import { planById, TRIAL_DAYS } from '../../src/access/plans'
import { config } from '../state'
import { ContactForm } from './ContactForm'

export const NO_PAYMENTS = 'This server takes no payments: the administrator grants plans.'

/** The name of the plan a new account gets free (billing off with DEFAULT_PLAN), else null. */
export function freePlanName(): string | null {
  const { billingEnabled, freePlan, productName } = config.value
  return !billingEnabled && freePlan ? planById(freePlan, productName).name : null
}

/** The landing's line above the plan cards while billing is off. */
export function billingOffPlansLead(): string {
  const free = freePlanName()
  return free
    ? `This server takes no payments: every new account gets ${free} free, without end, and the administrator can grant any plan.`
    : `This server takes no payments: a new account gets a ${TRIAL_DAYS}-day free trial, then the administrator grants plans.`
}

/** How to get a plan from the administrator: their address (when configured) and a message form. */
export function ContactAdmin() {
  useSignals()
  const support = config.value.supportEmail
  return (
    <div className="contact-admin" data-testid="contact-admin">
      <p>
        {NO_PAYMENTS}{' '}
        {support ? (
          <>
            Write to <a href={`mailto:${support}`}>{support}</a>, or send them a message from here.
          </>
        ) : (
          'Send them a message from here.'
        )}
      </p>
      <details>
        <summary>Send the administrator a message</summary>
        <ContactForm />
      </details>
    </div>
  )
}
