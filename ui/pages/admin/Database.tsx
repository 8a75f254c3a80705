// /admin/database: rows and size per table, the database file and its WAL, the last backup
// (GET /api/admin/database); integrity check, optimize (VACUUM, confirmed first), a backup download
// and archive of old posts (confirmed first). Each action is audited on the server. Fetching and
// state: ./database/useDatabase.ts; this file renders.
import { ConfirmDialog } from '../../components/ConfirmDialog'
import { timeAgo } from '../../lib/dates'
import { AdminLayout } from './AdminLayout'
import { formatBytes, formatCount } from './data-format'
import { LoadError } from './RangePicker'
import { useDatabase, type Stats } from './database/useDatabase'
import { TableScroll } from './TableScroll'

/** Archive cutoffs offered; 7 days keeps the live feed's window intact. */
const CUTOFFS = [
  { hours: 24, label: 'older than 24 hours' },
  { hours: 168, label: 'older than 7 days (keeps the live feed)' },
  { hours: 720, label: 'older than 30 days' },
  { hours: 2160, label: 'older than 90 days' },
]

export function AdminDatabase() {
  const { data, error, reload, busy, integrity, confirm, setConfirm, cutoff, setCutoff, checkIntegrity, optimize, archive } = useDatabase()
  return (
    <AdminLayout title="Database">
      {error && !data ? <LoadError error={error} title="Failed to load database details" retry={reload} /> : null}
      {!data && !error ? <p aria-busy="true">Loading database details...</p> : null}
      {data ? (
        <div className="ad-grid">
          <section className="ad-card" aria-labelledby="db-files">
            <h2 id="db-files">Files</h2>
            <dl className="ad-facts">
              <dt>Database file</dt>
              <dd>{formatBytes(data.files.db)}</dd>
              <dt>Write-ahead log (WAL)</dt>
              <dd>{formatBytes(data.files.wal)}</dd>
              <dt>Free space VACUUM can give back</dt>
              <dd>{formatBytes(data.freeBytes)}</dd>
              <dt>Pages</dt>
              <dd>
                {formatCount(data.pages)} × {formatBytes(data.pageSize)}
              </dd>
              <dt>SQLite</dt>
              <dd>{data.sqliteVersion}</dd>
            </dl>
          </section>
          <BackupCard backup={data.backup} />
          <section className="ad-card" aria-labelledby="db-actions">
            <h2 id="db-actions">Maintenance</h2>
            <div className="ad-actions">
              <button type="button" aria-busy={busy === 'quick'} disabled={busy !== null} onClick={() => void checkIntegrity('quick')}>
                Check integrity
              </button>
              <button type="button" className="secondary" aria-busy={busy === 'full'} disabled={busy !== null} onClick={() => void checkIntegrity('full')}>
                Full integrity check
              </button>
              <button type="button" className="secondary" aria-busy={busy === 'optimize'} disabled={busy !== null} onClick={() => setConfirm('optimize')}>
                Optimize (VACUUM)
              </button>
              <a role="button" className="secondary" href="/api/admin/database/backup" download>
                Download backup
              </a>
            </div>
            {integrity ? (
              <p className={integrity.ok ? 'ad-ok' : 'ad-bad'} role="status" data-testid="integrity-result">
                {integrity.mode === 'quick' ? 'Quick check' : 'Full check'}: {integrity.ok ? 'ok' : integrity.messages.join('; ')}
              </p>
            ) : null}
            <form
              className="ad-archive"
              onSubmit={(e) => {
                e.preventDefault()
                setConfirm('archive')
              }}
            >
              <label>
                Archive posts
                <select value={cutoff} onChange={(e) => setCutoff(Number(e.target.value))}>
                  {CUTOFFS.map((c) => (
                    <option key={c.hours} value={c.hours}>
                      {c.label}
                    </option>
                  ))}
                </select>
              </label>
              <button type="submit" className="secondary" aria-busy={busy === 'archive'} disabled={busy !== null}>
                Archive old posts
              </button>
            </form>
          </section>
          <TablesCard data={data} />
        </div>
      ) : null}
      {confirm === 'optimize' ? (
        <ConfirmDialog
          title="Optimize the database?"
          text={`VACUUM rewrites the whole database file (now ${formatBytes(data?.files.total ?? 0)}). While it runs, the server answers nothing else and other processes wait; on a large database this can take a while. It needs free disk space about the size of the database.`}
          action="Optimize"
          onCancel={() => setConfirm(null)}
          onConfirm={() => {
            setConfirm(null)
            void optimize()
          }}
        />
      ) : null}
      {confirm === 'archive' ? (
        <ConfirmDialog
          title="Archive old posts?"
          text={`Posts ${CUTOFFS.find((c) => c.hours === cutoff)?.label.replace(/ \(.*\)$/, '')} are deleted from the database. Matches keep their title and link. This cannot be undone.`}
          action="Archive"
          onCancel={() => setConfirm(null)}
          onConfirm={() => {
            setConfirm(null)
            void archive()
          }}
        />
      ) : null}
    </AdminLayout>
  )
}

function BackupCard({ backup }: { backup: Stats['backup'] }) {
  return (
    <section className="ad-card" aria-labelledby="db-backup">
      <h2 id="db-backup">Last backup</h2>
      {backup.at ? (
        <p>
          <strong>{new Date(backup.at).toLocaleString()}</strong> ({timeAgo(backup.at)})
        </p>
      ) : (
        <p className="ad-bad">No backup is known.</p>
      )}
      <ul className="ad-plain">
        <li>
          {backup.newestFile
            ? `Newest of ${backup.files} file${backup.files === 1 ? '' : 's'} in ${backup.dir}: ${backup.newestFile.name} (${formatBytes(backup.newestFile.bytes)})`
            : `No files in ${backup.dir}.`}
        </li>
        <li>
          {backup.lastRecorded
            ? `Last ${backup.lastRecorded.action === 'db.backup_download' ? 'download from this page' : 'dibs backup'} by ${backup.lastRecorded.actor}: ${new Date(backup.lastRecorded.at).toLocaleString()}`
            : 'No backup downloaded from this page or written with dibs backup yet.'}
        </li>
      </ul>
      <small className="ad-muted">
        Runs of <code>dibs backup &lt;file&gt;</code> are recorded wherever they write; copies made by other means are not seen here.
      </small>
    </section>
  )
}

function TablesCard({ data }: { data: Stats }) {
  const rows = [...data.tables].sort((a, b) => b.bytes + b.indexBytes - (a.bytes + a.indexBytes) || a.name.localeCompare(b.name))
  return (
    <section className="ad-card ad-wide" aria-labelledby="db-tables">
      <h2 id="db-tables">Tables</h2>
      {data.sizes === 'estimate' ? (
        <p className="ad-note">Sizes are estimates: this SQLite has no dbstat table, so each table gets a share of the file by its row count.</p>
      ) : null}
      <TableScroll label="Tables">
        <table className="striped">
          <thead>
            <tr>
              <th scope="col">Table</th>
              <th scope="col">Rows</th>
              <th scope="col">{data.sizes === 'estimate' ? 'Size (estimate)' : 'Size'}</th>
              <th scope="col">Indexes</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((t) => (
              <tr key={t.name}>
                <th scope="row">
                  <code>{t.name}</code>
                </th>
                <td>{formatCount(t.rows)}</td>
                <td>{formatBytes(t.bytes)}</td>
                <td>{data.sizes === 'estimate' ? '—' : formatBytes(t.indexBytes)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
    </section>
  )
}
