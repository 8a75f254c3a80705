// Shapes of /api/admin/users answers (src/admin/users/view.ts), as the Users page reads them.
import type { UserListItem as UserItem } from '../../../../src/admin/users/view'

export type { UserItem }

export type UserPage = { users: UserItem[]; total: number; page: number; pages: number; pageSize: number }

export type UserDetailData = {
  user: UserItem & { providers: string[]; hasPassword: boolean }
  access: { userRole: string; hasAccess: boolean; statusText: string; daysLeft: number | null; accessExpiresAt: string | null }
  billing: {
    role: string
    subscriptionStatus: string | null
    accessExpiresAt: string | null
    stripeCustomerId: string | null
    stripeSubscriptionId: string | null
    grantedBy: string | null
    updatedAt: string | null
  }
  terms: Record<string, { id: number; term: string; paused: boolean }[]>
  matchCounts: Record<string, { total: number; unread: number; archived: number }>
  notifications: { emailFrequency: string; webPushEnabled: boolean; pushDevices: number; defaults?: boolean }
  sessions: number
  audit: { id: number; at: string; actor: string; action: string; details: Record<string, unknown> | null; result: string }[]
}

export const ROLE_CHOICES = ['admin', 'product', 'gd', 'product+gd', 'app_trial', 'trial_expired', 'none'] as const
