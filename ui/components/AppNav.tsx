// Signed-in navigation (spec §2): a desktop top bar (4.25rem: brand, {product}, GUNDEALS, ADMIN for
// admins, SETTINGS menu, theme toggle) and, below 768 px, a bottom tab bar with a menu sheet.
// Tabs carry unread badges ('99+' cap); a tab the plan does not cover shows a padlock and, when
// clicked, '{feature} access requires subscription' with Upgrade. The ADMIN menu lists the labelled
// admin routes of ui/routes.ts. The menu sheet and the locked-tab popup are modal (<Modal>); the
// desktop dropdowns close on Escape and after a pick, with focus back on their summary.
import { useState } from 'react'
import { useSignals } from '@preact/signals-react/runtime'
import { Link, useLocation } from 'wouter'
import { lockedTabMessage } from '../../src/access/rules'
import { isAdmin, me } from '../account'
import { signOut } from '../session'
import { badgeCount } from '../lib/badge'
import { openModal } from '../modals'
import { adminMenu } from '../routes'
import { config, dealsName } from '../state'
import { resolvedTheme, setTheme, theme } from '../theme'
import { unread } from '../unread'
import { Modal } from './Modal'
import { ThemeToggle } from './ThemeToggle'
import { TrialBadge } from './TrialStatus'
import { Icon } from './Icon'

type Tab = { id: 'product' | 'gd'; label: string; feature: string; href: string; count: number; locked: boolean }

function useTabs(): Tab[] {
  const forums = me.value?.access.forums ?? []
  const u = unread.value
  const c = config.value
  return [
    {
      id: 'product',
      label: c.productName.toUpperCase(),
      feature: c.productName,
      href: `/dashboard/${c.productSlug}`,
      count: u.wts + u.wtb,
      locked: !forums.includes('product'),
    },
    { id: 'gd', label: dealsName().toUpperCase(), feature: dealsName(), href: '/dashboard/gundeals', count: u.gd, locked: !forums.includes('gd') },
  ]
}

function TabLink({ tab, onLocked, className }: { tab: Tab; onLocked: (t: Tab) => void; className?: string }) {
  const [path] = useLocation()
  const active = path.startsWith(tab.href)
  const badge = badgeCount(tab.count)
  if (tab.locked)
    return (
      <button type="button" className={`tab locked ${className ?? ''}`} data-testid={`tab-${tab.id}`} onClick={() => onLocked(tab)}>
        <Icon name="lock" /> {tab.label}
      </button>
    )
  return (
    <Link
      href={tab.href}
      className={`tab ${active ? 'active' : ''} ${className ?? ''}`}
      aria-current={active ? 'page' : undefined}
      data-testid={`tab-${tab.id}`}
    >
      {tab.label}
      {badge ? (
        <span className="badge unread-badge" data-testid={`badge-${tab.id}`}>
          {badge}
        </span>
      ) : null}
    </Link>
  )
}

function LockedPopup({ tab, onClose }: { tab: Tab; onClose: () => void }) {
  return (
    <Modal className="locked-popup" role="alertdialog" aria-labelledby="locked-title" onClose={onClose}>
      <article>
        <h3 id="locked-title">{lockedTabMessage(tab.feature)}</h3>
        <footer>
          <button type="button" className="secondary" onClick={onClose}>
            Close
          </button>
          <button
            type="button"
            onClick={() => {
              onClose()
              openModal('subscription', { upgrade: true })
            }}
          >
            Upgrade
          </button>
        </footer>
      </article>
    </Modal>
  )
}

/** Closes a desktop dropdown and gives focus back to its summary (a dialog opened from it returns there). */
function closeDropdown(details: HTMLDetailsElement | null) {
  if (!details?.open) return
  details.removeAttribute('open')
  details.querySelector('summary')?.focus()
}

function SettingsItems({ onPick }: { onPick?: () => void }) {
  const [, navigate] = useLocation()
  const pick = (fn: () => void) => () => {
    onPick?.()
    fn()
  }
  return (
    <>
      <li>
        <a href="#" onClick={(e) => (e.preventDefault(), pick(() => openModal('profile'))())}>
          Profile
        </a>
      </li>
      <li>
        <a href="#" onClick={(e) => (e.preventDefault(), pick(() => openModal('subscription'))())}>
          Subscription
        </a>
      </li>
      <li>
        <a href="#" onClick={(e) => (e.preventDefault(), pick(() => openModal('notifications'))())}>
          Notification Settings
        </a>
      </li>
      <li>
        <a href="/archive" onClick={(e) => (e.preventDefault(), pick(() => navigate('/archive'))())}>
          Archive
        </a>
      </li>
      <li>
        <a href="/why" onClick={(e) => (e.preventDefault(), pick(() => navigate('/why'))())}>
          Why didn't I get an alert?
        </a>
      </li>
    </>
  )
}

export function AppNav() {
  useSignals()
  const tabs = useTabs()
  const [locked, setLocked] = useState<Tab | null>(null)
  const [menuOpen, setMenuOpen] = useState(false)
  const admin = isAdmin.value
  const closeDetails = (e: React.SyntheticEvent) => closeDropdown(e.currentTarget.closest('details'))
  const escapeDetails = (e: React.KeyboardEvent) => {
    if (e.key !== 'Escape') return
    e.preventDefault()
    closeDropdown(e.currentTarget as HTMLDetailsElement)
  }
  return (
    <>
      <header className="topbar app-topbar">
        <Link href="/" className="brand">
          <span>{config.value.appName}</span>
        </Link>
        <nav className="desktop-tabs" aria-label="Main">
          {tabs.map((t) => (
            <TabLink key={t.id} tab={t} onLocked={setLocked} />
          ))}
          {admin ? (
            <details className="dropdown admin-menu" onKeyDown={escapeDetails}>
              <summary className="tab admin-tab">ADMIN</summary>
              <ul onClick={closeDetails}>
                {adminMenu(config.value.productSlug).map((item) => (
                  <li key={item.path}>
                    <Link href={item.path}>{item.label}</Link>
                  </li>
                ))}
              </ul>
            </details>
          ) : null}
          <details className="dropdown settings-menu" onKeyDown={escapeDetails}>
            <summary className="tab">SETTINGS</summary>
            <ul dir="rtl" onClick={closeDetails}>
              <SettingsItems />
              <li>
                <a href="#" onClick={(e) => (e.preventDefault(), openModal('help'))}>
                  Help
                </a>
              </li>
              <li>
                <a href="#" onClick={(e) => (e.preventDefault(), void signOut())}>
                  Log out
                </a>
              </li>
            </ul>
          </details>
        </nav>
        <TrialBadge />
        <ThemeToggle />
      </header>

      <nav className="bottom-tabs" aria-label="Tabs" data-testid="bottom-tabs">
        {tabs.map((t) => (
          <TabLink key={t.id} tab={t} onLocked={setLocked} className="bottom-tab" />
        ))}
        {admin ? (
          <Link href="/admin" className="tab bottom-tab admin-tab">
            ADMIN
          </Link>
        ) : null}
        <button type="button" className="tab bottom-tab" aria-expanded={menuOpen} onClick={() => setMenuOpen(true)}>
          MENU
        </button>
      </nav>

      {menuOpen ? (
        <Modal className="mobile-menu" aria-label="Menu" onClose={() => setMenuOpen(false)} onClick={(e) => e.target === e.currentTarget && setMenuOpen(false)}>
          <article>
            <header>
              <button type="button" aria-label="Close" rel="prev" className="close-x" onClick={() => setMenuOpen(false)} />
              <strong>{me.value?.user.name || me.value?.user.email}</strong>
            </header>
            <ul className="menu-list">
              <SettingsItems onPick={() => setMenuOpen(false)} />
              <li>
                <label>
                  <input
                    type="checkbox"
                    role="switch"
                    checked={resolvedTheme(theme.value) === 'dark'}
                    onChange={(e) => setTheme(e.target.checked ? 'dark' : 'light')}
                  />
                  Dark theme
                </label>
              </li>
              <li>
                <a href="#" onClick={(e) => (e.preventDefault(), void signOut())}>
                  Log out
                </a>
              </li>
            </ul>
          </article>
        </Modal>
      ) : null}
      {locked ? <LockedPopup tab={locked} onClose={() => setLocked(null)} /> : null}
    </>
  )
}
