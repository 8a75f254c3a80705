// /admin/tools (spec §2 Tools, §7 scan_metrics / RPCs, §8 admin toasts): the scan metrics panel
// (latest 100 scans, 10 shown, 24 h stats, every 30 s and on each live scan.metric), the scraper
// trigger, batch matching, the 10 latest runs of the job log ('Maintenance logs'), post-type
// backfill and archive. The server end is src/admin/tools/; every action there is audited.
// Fetching, state and the actions: ./tools/useTools.ts; this file and ./tools/ render.
import { ConfirmDialog } from '../../components/ConfirmDialog'
import { AdminLayout } from './AdminLayout'
import { ActionButton } from './tools/ActionButton'
import { JobLog } from './tools/JobLog'
import { ScanMetricsPanel } from './tools/ScanMetricsPanel'
import { useTools } from './tools/useTools'

export function AdminTools() {
  const { version, archiveHours, setArchiveHours, trigger, batch, backfill, archiveAsk, setArchiveAsk, askArchive, archive } = useTools()

  return (
    <AdminLayout title="Tools">
      <ScanMetricsPanel />
      <div className="admin-columns">
        <article className="admin-card" aria-labelledby="scraper-title">
          <header>
            <h2 id="scraper-title">Reddit scraper</h2>
          </header>
          <p className="muted">Schedules one scan now. It never overlaps a scan in flight and respects the Reddit rate budget.</p>
          <ActionButton label="Run scraper now" run={trigger} />
        </article>
        <article className="admin-card" aria-labelledby="batch-title">
          <header>
            <h2 id="batch-title">Batch matching</h2>
          </header>
          <p className="muted">Matches the last 24 hours of posts against every saved term and creates the missing matches (never alerted).</p>
          <ActionButton label="Run batch matching" run={batch} />
        </article>
      </div>
      <article className="admin-card" aria-labelledby="dbm-title">
        <header>
          <h2 id="dbm-title">Database maintenance</h2>
        </header>
        <div className="tool-row">
          <div>
            <h3>Post-type backfill</h3>
            <p className="muted">Classifies stored posts that have no post type yet (WTS/WTB/deals).</p>
          </div>
          <ActionButton label="Backfill post types" className="secondary" run={backfill} />
        </div>
        <div className="tool-row">
          <div>
            <h3>Archive old posts</h3>
            <p className="muted">
              Deletes stored posts older than the chosen age; matches keep their own copy of the post. The public live feed shows 7 days, so 24 hours also
              empties its older entries.
            </p>
            <label>
              Older than
              <select value={archiveHours} onChange={(e) => setArchiveHours(Number(e.currentTarget.value))}>
                <option value={24}>24 hours</option>
                <option value={168}>7 days</option>
              </select>
            </label>
          </div>
          <ActionButton label="Archive old posts" className="secondary" run={askArchive} />
        </div>
      </article>
      {archiveAsk !== null ? (
        <ConfirmDialog
          title="Archive old posts?"
          text={archiveAsk}
          action="Archive"
          onCancel={() => setArchiveAsk(null)}
          onConfirm={() => {
            setArchiveAsk(null)
            void archive()
          }}
        />
      ) : null}
      <JobLog version={version} />
    </AdminLayout>
  )
}
