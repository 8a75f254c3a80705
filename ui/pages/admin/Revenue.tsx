// /admin/revenue
import { AdminLayout } from './AdminLayout'

export function AdminRevenue() {
  return <AdminLayout title="Revenue">{null}</AdminLayout>
}
