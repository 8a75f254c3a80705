// Unread badge text (spec §9: '99+' above 99), shared with the server's rules.
export { badgeCount } from '../../src/access/rules'
