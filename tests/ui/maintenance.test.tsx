// Maintenance mode in the app (issue 14 item 2): the API client notes the server's
// x-maintenance-mode header on every /api answer, and <Protected> then shows signed-in non-admins
// the maintenance page while admins keep their pages. Rendered to a string (no effects run).
import { afterEach, describe, expect, test } from 'bun:test'
import { createElement } from 'react'
import { renderToString } from 'react-dom/server'
import { Router } from 'wouter'
import { App } from '../../ui/App'
import { me } from '../../ui/account'
import { api, call } from '../../ui/client'
import { MAINTENANCE_TITLE } from '../../ui/components/MaintenancePage'
import { maintenanceMode } from '../../ui/maintenance'
import { socketUser } from '../../ui/realtime'
import { authStatus } from '../../ui/session'
import { configLoaded } from '../../ui/state'

const realFetch = globalThis.fetch
afterEach(() => {
  globalThis.fetch = realFetch
  maintenanceMode.value = false
})

function answer(status: number, body: unknown, headers: Record<string, string> = {}) {
  globalThis.fetch = (async () => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } })) as never
}

function render(path: string) {
  return renderToString(createElement(Router, { ssrPath: path, ssrContext: {}, children: createElement(App) }))
}

function signedInAs(role: 'admin' | 'product+gd') {
  authStatus.value = 'authenticated'
  configLoaded.value = true
  me.value = { user: { id: socketUser.peek() ?? 1, email: 'u@example.com', name: 'U' }, access: { userRole: role, hasAccess: true } } as never
}

describe('maintenance mode in the app', () => {
  test('the API client follows the header: on with it, off again without it (errors too)', async () => {
    answer(200, {}, { 'x-maintenance-mode': 'on' })
    await call(api.me.get())
    expect(maintenanceMode.value).toBe(true)
    answer(503, { error: { code: 'MAINTENANCE', message: 'down' } }, { 'x-maintenance-mode': 'on' })
    expect(call(api.unread.get())).rejects.toThrow('down') // bun:test settles the promise before it returns

    expect(maintenanceMode.value).toBe(true)
    answer(200, { wts: 0, wtb: 0, gd: 0 })
    await call(api.unread.get())

    expect(maintenanceMode.value).toBe(false)
  })

  test('a signed-in subscriber sees the maintenance page instead of their page; an admin does not', () => {
    signedInAs('product+gd')
    expect(render('/settings/account')).not.toContain(MAINTENANCE_TITLE)
    maintenanceMode.value = true
    const html = render('/settings/account')
    expect(html).toContain(MAINTENANCE_TITLE)
    expect(html).toContain('Try again')
    signedInAs('admin')
    expect(render('/admin')).not.toContain(MAINTENANCE_TITLE)
    expect(render('/admin')).toContain('Admin Dashboard')
  })
})
