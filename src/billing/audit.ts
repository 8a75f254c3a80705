// Billing's lines in the admin activity log (audit_log, actor 'stripe'). The same row that
// src/admin/audit.ts recordAudit writes; written here because billing may not import src/admin/
// (src/admin/deps.ts → src/services.ts → billing's jobs would close a folder cycle).
import { auditLog } from '../db/schema'
import type { Deps } from '../deps'

export function recordBillingAudit(deps: Pick<Deps, 'db' | 'now'>, entry: { action: string; target: string; details: Record<string, unknown> }) {
  deps.db
    .insert(auditLog)
    .values({ at: deps.now(), actorId: null, actor: 'stripe', action: entry.action, target: entry.target, details: entry.details, result: 'ok' })
    .run()
}
