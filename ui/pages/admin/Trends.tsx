// /admin/trends
import { AdminLayout } from './AdminLayout'

export function AdminTrends() {
  return <AdminLayout title="Trends">{null}</AdminLayout>
}
