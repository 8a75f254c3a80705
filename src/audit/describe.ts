// One line in words for an audit row, as Recent Activity shows it ('Emergency pause turned on',
// 'Banned user:12'). Pure; an action without a phrase reads as its verb with the target.
type Row = { action: string; target: string | null; details: Record<string, unknown> | null | undefined }

const onOff = (d: Row['details']) => (d?.active === true ? 'turned on' : 'turned off')

const PHRASES: Record<string, (r: Row) => string> = {
  'settings.is_emergency_paused': (r) => `Emergency pause ${onOff(r.details)}`,
  'settings.is_maintenance_mode_active': (r) => `Maintenance mode ${onOff(r.details)}`,
  'scanner.trigger': () => 'Scraper run scheduled',
  'scanner.force_run': () => 'Scan forced',
  'scanner.settings': () => 'Scan settings changed',
  'scanner.settings_reset': () => 'Scan settings reset to the environment',
  'matching.batch': (r) => `Batch matching${typeof r.details?.matches_created === 'number' ? `: ${r.details.matches_created} matches created` : ''}`,
  'posts.backfill_types': () => 'Post types backfilled',
  'posts.archive': () => 'Old posts archived',
  'db.integrity_check': () => 'Database integrity checked',
  'db.optimize': () => 'Database optimized (VACUUM)',
  'db.backup': () => 'Database backed up (dibs backup)',
  'db.restore': (r) => `Database restored from ${r.target ?? 'a backup'} (dibs restore)`,
  'db.migrate': (r) => `Database migrated${typeof r.details?.applied === 'string' ? `: ${r.details.applied}` : ''} (dibs migrate)`,
  'scanner.scan': () => 'Scan run (dibs scan)',
  'billing.sync': (r) => `Stripe catalog synced${r.details?.reconcile === true ? ' and subscriptions reconciled' : ''} (dibs billing sync)`,
  'db.backup_download': () => 'Database backup downloaded',
  'outbox.retry': (r) => `Retried delivery ${r.target ?? ''}`.trim(),
  'outbox.retry_all': () => 'Retried every failed delivery',
  'seller.block': (r) => `Never alert on ${r.target ?? 'a seller'}`,
  'seller.unblock': (r) => `Alerts on ${r.target ?? 'a seller'} allowed again`,
  'push.gone': () => 'Push subscription removed (gone at the push service)',
  'feedback.reply': (r) => `Replied to feedback ${r.target ?? ''}`.trim(),
  'feedback.state': (r) => `Feedback ${r.target ?? ''} marked ${String(r.details?.state ?? '')}`.replace(/\s+/g, ' ').trim(),
  'user.create': (r) => `Added user ${String(r.details?.email ?? r.target ?? '')}`.trim(),
  'user.role': (r) => `Role of ${r.target} set to ${String(r.details?.role ?? '')}`,
  'user.grant': (r) => `Gifted ${String(r.details?.plan ?? 'a plan')} to ${r.target}`,
  'user.trial_extend': (r) => `Trial of ${r.target} extended${typeof r.details?.days === 'number' ? ` by ${r.details.days} days` : ''}`,
  'user.trial_end': (r) => `Trial of ${r.target} ended`,
  'user.ban': (r) => `Banned ${r.target}`,
  'user.unban': (r) => `Unbanned ${r.target}`,
  'user.password_reset': (r) => `Password-reset email sent to ${r.target}`,
  'user.sign_out': (r) => `Signed ${r.target} out of every device`,
  'user.reset_2fa': (r) => `Two-factor sign-in of ${r.target} reset`,
  'user.delete': (r) => `Deleted ${r.target}`,
  'source.add': (r) => `Source added${typeof r.details?.name === 'string' ? `: ${r.details.name}` : ''}`,
  'source.edit': (r) =>
    `Source ${r.target ?? ''} ${r.details?.enabled === true ? 'enabled' : r.details?.enabled === false ? 'disabled' : 'edited'}`.replace(/\s+/g, ' '),
  'source.remove': (r) => `Source ${r.target ?? ''} removed${typeof r.details?.name === 'string' ? ` (${r.details.name})` : ''}`.replace(/\s+/g, ' '),
  'source.fetch': (r) => `Source ${r.target ?? ''} fetched now`.replace(/\s+/g, ' '),
  'source.rotate_secret': (r) => `Push secret of ${r.target ?? 'a source'} rotated`,
  'source.settings': (r) => `Feed politeness set to ${String(r.details?.politenessSeconds ?? '?')} s per host`,
  'source.switch_pair': (r) => `Forums switched to the ${r.target ?? ''} pair`.replace(/\s+/g, ' '),
  'billing.plan_changed': (r) => `Stripe: plan of ${r.target} changed to ${String(r.details?.role ?? '')}`,
  'billing.cancel_at_period_end': (r) => `Stripe: ${r.target} canceled at period end`,
  'billing.payment_failed': (r) => `Stripe: payment of ${r.target} failed`,
}

export function describeAudit(row: Row): string {
  const phrase = PHRASES[row.action]
  if (phrase) return phrase(row)
  const verb = row.action.replace(/[._]/g, ' ')
  return `${verb.charAt(0).toUpperCase()}${verb.slice(1)}${row.target ? ` (${row.target})` : ''}`
}
