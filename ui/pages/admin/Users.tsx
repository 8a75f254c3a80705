// /admin/users
import { AdminLayout } from './AdminLayout'

export function AdminUsers() {
  return <AdminLayout title="Users">{null}</AdminLayout>
}
