// /admin/feedback
import { AdminLayout } from './AdminLayout'

export function AdminFeedback() {
  return <AdminLayout title="Feedback">{null}</AdminLayout>
}
