// Which app-level modal is open (menus open them; AppShell renders them).
import { signal } from '@preact/signals-react'

export type ModalName = 'profile' | 'help' | 'notifications' | 'subscription' | null
export const modal = signal<ModalName>(null)
/** The subscription modal was opened by 'Upgrade' on a locked feature: it shows the plans to anyone but admins. */
export const upgradeIntent = signal(false)
export const openModal = (name: ModalName, opts: { upgrade?: boolean } = {}) => {
  upgradeIntent.value = opts.upgrade === true
  modal.value = name
}
export const closeModal = () => (modal.value = null)
