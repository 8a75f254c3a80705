// /admin/logs ('Scraper Logs'; spec §2 Logs made real): the scanner's status with Pause and Force
// run, the runtime scan settings (stored in system_settings, applied without a restart), the sources
// of both forums (./logs/SourcesCard.tsx, issue 25), the scan log with a status filter, and the last
// 500 application log lines with a level filter and a live tail (polling ?after=). Server end: src/admin/logs/. Fetching and state: ./logs/useLogs.ts; the
// cards are in ./logs/; this file lays them out.
import { AdminLayout } from './AdminLayout'
import { CoverageGaps } from './CoverageGaps'
import { AppLog } from './logs/AppLog'
import { ScanLog } from './logs/ScanLog'
import { ScannerCard } from './logs/ScannerCard'
import { SettingsCard } from './logs/SettingsCard'
import { SourcesCard } from './logs/SourcesCard'
import { useScannerStatus } from './logs/useLogs'

export function AdminLogs() {
  const { status, version } = useScannerStatus()
  return (
    <AdminLayout title="Scraper Logs">
      <div className="admin-columns">
        <ScannerCard status={status.data} reload={status.reload} />
        <SettingsCard settings={status.data?.settings ?? null} reload={status.reload} />
      </div>
      <SourcesCard />
      <CoverageGaps version={version} />
      <ScanLog version={version} />
      <AppLog />
    </AdminLayout>
  )
}
