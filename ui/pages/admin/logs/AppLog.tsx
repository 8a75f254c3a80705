// Admin → Logs, the Application log card: the last 500 lines of this process at a level or above,
// with a live tail. Fetching and the tail: ./useLogs.ts.
import { useAppLog, type LogLine } from './useLogs'

export function AppLog() {
  const { level, setLevel, live, setLive, lines, failed, box } = useAppLog()
  return (
    <article className="admin-card" aria-labelledby="applog-title">
      <header className="card-head">
        <h2 id="applog-title">Application log</h2>
        <div className="inline-controls">
          <label className="inline-field">
            Level
            <select value={level} onChange={(e) => setLevel(e.currentTarget.value as LogLine['level'])}>
              <option value="debug">debug</option>
              <option value="info">info</option>
              <option value="warn">warn</option>
              <option value="error">error</option>
            </select>
          </label>
          <label className="inline-field">
            <input type="checkbox" role="switch" checked={live} onChange={(e) => setLive(e.currentTarget.checked)} />
            Live tail
          </label>
        </div>
      </header>
      <p className="muted small-text">The last 500 lines this process logged (kept in memory; a restart clears them).</p>
      {failed ? (
        <p role="alert" className="text-danger">
          Could not load the application log.
        </p>
      ) : null}
      <pre className="app-log" ref={box} tabIndex={0} aria-label="Application log lines" data-testid="app-log">
        {lines.length === 0
          ? 'No lines at this level yet.'
          : lines.map((l) => (
              <span key={l.seq} className={`log-${l.level}`}>
                {l.at.slice(11, 19)} {l.level.toUpperCase().padEnd(5)} {l.text}
                {'\n'}
              </span>
            ))}
      </pre>
    </article>
  )
}
