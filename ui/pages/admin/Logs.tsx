// /admin/logs
import { AdminLayout } from './AdminLayout'

export function AdminLogs() {
  return <AdminLayout title="Scraper Logs">{null}</AdminLayout>
}
