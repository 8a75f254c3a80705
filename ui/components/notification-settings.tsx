// Adapter to the notifications capability's dialog (ui/components/NotificationSettings.tsx).
// Until it lands, a short note stands in so the menu item still opens something sensible.
export function NotificationSettingsModal({ onClose }: { onClose: () => void }) {
  return (
    <dialog open aria-labelledby="notif-title">
      <article>
        <header>
          <button type="button" aria-label="Close" rel="prev" className="close-x" onClick={onClose} />
          <h3 id="notif-title">Notification Settings</h3>
        </header>
        <p className="muted">Email and push preferences are loading…</p>
      </article>
    </dialog>
  )
}
