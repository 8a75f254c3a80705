// Shapes of /api/admin/users answers (src/admin/users/), as the typed client reads them from the server.
import { api, type Answer } from '../../../client'

export type UserPage = Answer<typeof api.admin.users.get>
export type UserItem = UserPage['users'][number]
export type UserDetailData = Answer<ReturnType<typeof api.admin.users>['get']>

export const ROLE_CHOICES = ['admin', 'product', 'gd', 'product+gd', 'app_trial', 'trial_expired', 'none'] as const
