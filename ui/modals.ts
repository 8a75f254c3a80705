// Which app-level modal is open (menus open them; AppShell renders them).
import { signal } from '@preact/signals-react'

export type ModalName = 'profile' | 'help' | 'notifications' | 'subscription' | null
export const modal = signal<ModalName>(null)
export const openModal = (name: ModalName) => (modal.value = name)
export const closeModal = () => (modal.value = null)
