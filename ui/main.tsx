// Browser entry: mounts the React app, or shows 'Application Error' when the root element is missing.
import { createRoot } from 'react-dom/client'
import { App } from './App'
import { PwaStatus } from './components/PwaStatus'
import { startPwa } from './pwa'
import { wireNotificationSettingsLink } from './components/NotificationSettings'
import { openModal } from './modals'

const root = document.getElementById('root')
if (root) {
  createRoot(root).render(
    <>
      <App />
      <PwaStatus />
    </>,
  )
  startPwa()
  wireNotificationSettingsLink(() => openModal('notifications'))
} else {
  const box = document.createElement('div')
  box.className = 'app-error'
  box.innerHTML = '<h1>Application Error</h1><p>The application could not start: its root element is missing. Please reload the page.</p>'
  document.body.appendChild(box)
}
