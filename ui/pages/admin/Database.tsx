// /admin/database
import { AdminLayout } from './AdminLayout'

export function AdminDatabase() {
  return <AdminLayout title="Database">{null}</AdminLayout>
}
