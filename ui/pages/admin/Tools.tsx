// /admin/tools
import { AdminLayout } from './AdminLayout'

export function AdminTools() {
  return <AdminLayout title="Tools">{null}</AdminLayout>
}
