// The landing page (spec §1, §2): hero, sign-up calls to action, the 3-step explainer, the live
// public feed, the plan comparison and the FAQ.
import { useSignals } from '@preact/signals-react/runtime'
import { Link } from 'wouter'
import { LiveFeed } from '../components/LiveFeed'
import { TopBar } from '../components/TopBar'
import { PlanGrid } from '../components/PlanCards'
import { config, configLoaded } from '../state'
import { billingOffPlansLead, freePlanName } from '../components/BillingOff'
import { LandingHeaderActions } from '../components/LandingHeaderActions'

export const STEPS: [string, string][] = [
  ['Save search terms', 'Tell us what you are hunting for — "glock 19", "trijicon rmr", "aimpoint <$500" — for WTS, WTB or deals.'],
  ['Wait for matches', 'We watch every new post and match it against your terms the moment it appears.'],
  ['Claim dibs', 'Get an instant alert in the app, by push or email, and be the first to reply.'],
]

export const FAQ: [string, string][] = [
  ['How fast are notifications?', 'Notifications arrive within seconds of a matching post appearing on Reddit.'],
  ['Is there a mobile app?', 'A dedicated mobile app is on the roadmap. Until then, install this web app on your phone and turn on push notifications.'],
  [
    'How many search terms do I get?',
    'Every subscriber gets 10 search terms for each list in their plan: WTS, WTB and deals (the bundle has all three, so 30).',
  ],
  ['Can I cancel at any time?', 'Yes. You can cancel at any time and your benefits last until the end of the billing period.'],
  ['Is there a free trial?', 'Yes: a 7-day free trial with full access. No card needed to start.'],
]

/** Billing off (issue 30 §5): the FAQ's answers about paying say what this server does instead. */
function faq(): [string, string][] {
  if (config.value.billingEnabled) return FAQ
  const free = freePlanName()
  const answers: Record<string, string> = {
    'Can I cancel at any time?': 'There is nothing to pay or cancel: this server takes no payments.',
    'Is there a free trial?': free
      ? `No trial is needed: every new account gets ${free} free, without end.`
      : 'Yes: a 7-day free trial with full access. After it, the administrator grants plans; this server takes no payments.',
  }
  return FAQ.map(([q, a]) => [q, answers[q] ?? a])
}

export function Landing() {
  useSignals()
  const { accessories, deals } = config.value.forums
  return (
    <>
      <TopBar>
        <LandingHeaderActions />
      </TopBar>
      <main className="container landing">
        <section className="hero">
          <h1>Call dibs first.</h1>
          <p className="lead">
            Instant alerts for your saved keywords: the moment a new r/{accessories} or r/{deals} post matches, you know.
          </p>
          <div className="hero-cta">
            <Link href="/signup" role="button">
              Start Free Trial
            </Link>
            <a href="#live-feed" role="button" className="outline secondary">
              See the live feed
            </a>
          </div>
        </section>

        <section className="steps" aria-labelledby="how-title">
          <h2 id="how-title">How it works</h2>
          <div className="grid">
            {STEPS.map(([title, text], i) => (
              <article key={title}>
                <span className="step-number">{i + 1}</span>
                <h3>{title}</h3>
                <p className="muted">{text}</p>
              </article>
            ))}
          </div>
        </section>

        <LiveFeed />

        {/* Plans and the FAQ say what this server sells (or that it sells nothing): shown once /api/config is here,
            so the fallback never promises a trial or a price for a moment */}
        {configLoaded.value ? (
          <section className="plans" aria-labelledby="plans-title">
            <h2 id="plans-title">Plans</h2>
            <p className="muted">
              {config.value.billingEnabled ? 'Every plan starts with a 7-day free trial. Monthly, cancel any time.' : billingOffPlansLead()}
            </p>
            <PlanGrid
              cta={(id) =>
                config.value.billingEnabled || id === config.value.freePlan ? (
                  <Link href="/signup" role="button" className="outline">
                    {config.value.billingEnabled ? 'Start Free Trial' : 'Sign Up'}
                  </Link>
                ) : null
              }
            />
          </section>
        ) : null}

        {configLoaded.value ? (
          <section className="faq" aria-labelledby="faq-title">
            <h2 id="faq-title">Frequently asked questions</h2>
            {faq().map(([q, a]) => (
              <details key={q}>
                <summary>{q}</summary>
                <p>{a}</p>
              </details>
            ))}
          </section>
        ) : null}
      </main>
    </>
  )
}
