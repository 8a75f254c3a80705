// Adapter to the notifications capability's dialog (ui/components/NotificationSettings.tsx).
export { NotificationSettings as NotificationSettingsModal } from './NotificationSettings'
