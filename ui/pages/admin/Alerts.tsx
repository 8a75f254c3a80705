// /admin/alerts
import { AdminLayout } from './AdminLayout'

export function AdminAlerts() {
  return <AdminLayout title="Alerts">{null}</AdminLayout>
}
