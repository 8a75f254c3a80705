// Admin → Logs, the Scanner card: the scanner's state in words and its badge (the source's own state
// while it is in trouble), the source's health, each forum's last post, unreadable posts, Pause and
// Force run. State and actions: ./useLogs.ts.
import { Fragment } from 'react'
import { useSignals } from '@preact/signals-react/runtime'
import { formatWhen, systemSettings } from '../../../admin'
import { useScannerActions, type Status } from './useLogs'

function stateText(s: Status): string {
  switch (s.state) {
    case 'running':
      return 'Running: a scan is in progress'
    case 'paused':
      return 'Paused: the emergency pause is on'
    case 'waiting':
      return `Waiting until ${formatWhen(s.waitingUntil)}: ${s.waitingWhy ?? 'the rate budget allows no request yet'}`
    case 'failing':
      return `Failing since ${formatWhen(s.failingSince)}`
    case 'idle':
    default:
      if (!s.nextScanAt) return 'Idle'
      return Date.parse(s.nextScanAt) > Date.now() ? `Idle: next scan ${formatWhen(s.nextScanAt)}` : 'Idle: next scan due now'
  }
}

const TONE: Record<Status['state'], string> = { running: 'ok', idle: 'ok', paused: 'danger', failing: 'danger', waiting: 'warning' }

/** The badge: the source's own state while it is in trouble (blocked, login required, …), else the scanner's. */
function badge(s: Status): { text: string; tone: string } {
  const h = s.health
  if (h && h.state !== 'ok' && s.state !== 'running' && s.state !== 'paused')
    return { text: `source ${h.state.replace('_', ' ')}`, tone: h.state === 'slow' ? 'warning' : 'danger' }
  return { text: s.state === 'waiting' ? 'waiting' : s.state, tone: TONE[s.state] }
}

export function ScannerCard({ status, reload }: { status: Status | null; reload: () => void }) {
  useSignals()
  const paused = systemSettings.value?.is_emergency_paused ?? status?.paused ?? false
  const { busy, togglePause, forceRun } = useScannerActions(paused, reload)
  return (
    <article className="admin-card" aria-labelledby="scanner-title" data-testid="scanner-status">
      <header>
        <h2 id="scanner-title">
          Scanner{' '}
          {status ? (
            <span className={`badge status-badge tone-${badge(status).tone}`} data-testid="scanner-state">
              {badge(status).text}
            </span>
          ) : null}
        </h2>
      </header>
      {status ? (
        <>
          <p>{stateText(status)}</p>
          {status.forumNotice ? (
            <p className="text-danger" data-testid="forum-notice">
              {status.forumNotice}
            </p>
          ) : null}
          {status.state === 'failing' && status.lastError ? <p className="text-danger">Last error: {status.lastError}</p> : null}
          <dl className="stat-list">
            <dt>Last scan</dt>
            <dd>{formatWhen(status.lastScanAt)}</dd>
            <dt>Last success</dt>
            <dd>{formatWhen(status.lastSuccessAt)}</dd>
            <dt>Source</dt>
            <dd>{status.mode ?? '—'}</dd>
            {status.health ? (
              <>
                <dt>Source health</dt>
                <dd data-testid="source-health">
                  {status.health.state.replace('_', ' ')}
                  {status.health.since ? ` since ${formatWhen(status.health.since)}` : ''} · {status.health.requestsLastHour}{' '}
                  {status.health.requestsLastHour === 1 ? 'request' : 'requests'}, {status.health.rateLimitedLastHour} × 429, {status.health.forbiddenLastHour}{' '}
                  × 403 in the last hour
                  {status.health.nextTryAt ? ` · next try ${formatWhen(status.health.nextTryAt)}` : ''}
                </dd>
              </>
            ) : null}
            {(status.lastPostPerForum ?? []).map((f) => (
              <Fragment key={f.subreddit}>
                <dt>Last post in r/{f.subreddit}</dt>
                <dd data-testid="forum-last-post">
                  {formatWhen(f.at)}
                  {f.flag ? <span className="text-danger"> · {f.flag}</span> : null}
                </dd>
              </Fragment>
            ))}
          </dl>
          {status.health?.reason ? (
            <p className={status.health.state === 'slow' ? '' : 'text-danger'} data-testid="source-health-reason">
              {status.health.reason}
            </p>
          ) : null}
          {status.recheck ? (
            <p className="muted small-text" data-testid="recheck-note">
              {status.recheck}
            </p>
          ) : null}
          {status.unparsed && status.unparsed.last24h > 0 ? (
            <div className="text-danger" data-testid="unparsed-posts">
              <p>
                {status.unparsed.last24h === 1 ? '1 post' : `${status.unparsed.last24h} posts`} could not be read in the last 24 hours: stored unparsed and
                never matched; the rest of each scan went on.
              </p>
              <ul>
                {status.unparsed.recent.map((p) => (
                  <li key={p.redditId}>
                    {p.redditId} “{p.title}”: {p.error}
                  </li>
                ))}
              </ul>
            </div>
          ) : null}
        </>
      ) : (
        <p aria-busy="true">Loading…</p>
      )}
      <div className="button-row">
        <button type="button" className={paused ? '' : 'secondary'} onClick={togglePause} aria-busy={busy === 'pause'} disabled={busy !== null}>
          {paused ? 'Resume' : 'Pause'}
        </button>
        <button type="button" className="outline" onClick={forceRun} aria-busy={busy === 'run'} disabled={busy !== null}>
          Force run
        </button>
      </div>
      <p className="muted small-text">
        Pause is the emergency pause: scanning, matching and alerting stop together. Force run scans once now within the rate budget and never overlaps a scan
        in flight.
      </p>
    </article>
  )
}
