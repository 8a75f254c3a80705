// /admin
import { AdminLayout } from './AdminLayout'

export function AdminDashboard() {
  return <AdminLayout title="Admin Dashboard">{null}</AdminLayout>
}
