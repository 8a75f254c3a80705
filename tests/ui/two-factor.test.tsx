// Two-factor sign-in in the UI (issue 11 item 13), rendered in happy-dom against a stand-in fetch:
// the helpers that format the secret and the recovery codes, the login's code step and the settings
// section's 'Turn off' for an account without a password (it proves itself with a code).
import { GlobalRegistrator } from '@happy-dom/global-registrator'
import { afterAll, afterEach, beforeEach, describe, expect, test } from 'bun:test'

GlobalRegistrator.register({ url: 'http://localhost:3000/settings/account' })
const { act } = await import('react')
const { createRoot } = await import('react-dom/client')
const { me } = await import('../../ui/account')
const { toasts } = await import('../../ui/toast')
const { digitsOnly, groupSecret, isSixDigits, qrImageSrc, recoveryCodesText } = await import('../../ui/two-factor')
const { TwoFactorStep } = await import('../../ui/pages/auth/TwoFactorStep')
const { TwoFactorSection } = await import('../../ui/pages/settings/TwoFactorSection')

;(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true
const realFetch = globalThis.fetch
let container: HTMLElement
let root: ReturnType<typeof createRoot>
let requests: { method: string; path: string; body: unknown }[]
let answer: (method: string, path: string) => { status?: number; body: unknown }

beforeEach(() => {
  requests = []
  globalThis.fetch = (async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const path = String(input)
    const method = init.method ?? 'GET'
    requests.push({ method, path, body: init.body ? JSON.parse(String(init.body)) : undefined })
    const { status = 200, body } = answer(method, path)
    return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })
  }) as typeof fetch
})
afterEach(async () => {
  await act(async () => root?.unmount())
  container?.remove()
  globalThis.fetch = realFetch
  toasts.value = []
})
afterAll(async () => {
  await GlobalRegistrator.unregister()
})

async function render(node: React.ReactNode) {
  container = document.createElement('div')
  document.body.appendChild(container)
  root = createRoot(container)
  await act(async () => root.render(node))
}

/** Types into a controlled input as a user would (React tracks the value; the native setter bypasses that). */
async function type(input: HTMLInputElement, value: string) {
  await act(async () => {
    Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(input, value)
    input.dispatchEvent(new Event('input', { bubbles: true }))
  })
}

async function submit(form: HTMLFormElement) {
  await act(async () => {
    form.dispatchEvent(new Event('submit', { bubbles: true, cancelable: true }))
  })
}

async function click(el: Element) {
  await act(async () => (el as HTMLElement).click())
}

/** The input a label names: wrapped in it, or by its htmlFor. */
function byLabel(text: string): HTMLInputElement | undefined {
  const label = [...container.querySelectorAll('label')].find((l) => l.textContent?.trim() === text)
  if (!label) return undefined
  return (label.htmlFor ? document.getElementById(label.htmlFor) : label.querySelector('input')) as HTMLInputElement
}
const button = (text: string) => [...container.querySelectorAll('button, a')].find((b) => b.textContent?.trim() === text) as HTMLElement | undefined

describe('formatting', () => {
  test('the secret shows in groups of four; typed or pasted codes keep their digits only', () => {
    expect(groupSecret('JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP')).toBe('JBSW Y3DP EHPK 3PXP JBSW Y3DP EHPK 3PXP')
    expect(groupSecret('ABCDEF')).toBe('ABCD EF')
    expect(digitsOnly('123 456')).toBe('123456')
    expect(digitsOnly('12-34-56-78')).toBe('123456')
    expect(isSixDigits('123456')).toBe(true)
    expect(isSixDigits('12345')).toBe(false)
  })

  test('the recovery-codes .txt names the account and lists one code a line', () => {
    const codes = ['AAAAA-BBBBB', 'CCCCC-DDDDD']
    const text = recoveryCodesText('Dibs', 'pat@example.com', codes, new Date('2026-11-23T12:00:00Z'))
    expect(text.split('\n')[0]).toBe('Dibs recovery codes for pat@example.com')
    expect(text).toContain('Created 2026-11-23.')
    expect(text.split('\n')).toEqual(expect.arrayContaining(codes))
  })

  test('the QR code is an image source made from the SVG (no inline SVG markup)', () => {
    const svg = '<svg xmlns="http://www.w3.org/2000/svg"><rect fill="white" width="1" height="1"/></svg>'
    const src = qrImageSrc(svg)
    expect(src.startsWith('data:image/svg+xml;utf8,')).toBe(true)
    expect(decodeURIComponent(src.slice('data:image/svg+xml;utf8,'.length))).toBe(svg)
  })
})

describe("the login's code step", () => {
  test("'Two-factor code' is focused, numeric and one-time-code; a pasted '123 456' is sent as {code: '123456'}", async () => {
    const sent: unknown[] = []
    await render(<TwoFactorStep submit={async (f) => void sent.push(f)} onBack={() => {}} />)
    const input = byLabel('Two-factor code')!
    expect(document.activeElement).toBe(input)
    expect(input.getAttribute('inputmode')).toBe('numeric')
    expect(input.getAttribute('autocomplete')).toBe('one-time-code')
    await type(input, '123 456')
    expect(input.value).toBe('123456')
    await submit(container.querySelector('form')!)
    expect(sent).toEqual([{ code: '123456' }])
  })

  test('fewer than 6 digits asks for the code without sending; a refused code shows the reason and empties the field', async () => {
    const sent: unknown[] = []
    await render(
      <TwoFactorStep
        submit={async (f) => {
          sent.push(f)
          throw new Error('Invalid two-factor code. Please try again.')
        }}
        onBack={() => {}}
      />,
    )
    const input = byLabel('Two-factor code')!
    await type(input, '123')
    await submit(container.querySelector('form')!)
    expect(sent).toEqual([])
    expect(container.querySelector('[role=alert]')!.textContent).toBe('Enter the 6-digit code from your authenticator app.')
    await type(input, '654321')
    await submit(container.querySelector('form')!)
    expect(sent).toEqual([{ code: '654321' }])
    expect(container.querySelector('[role=alert]')!.textContent).toBe('Invalid two-factor code. Please try again.')
    expect(input.value).toBe('')
    expect(document.activeElement).toBe(input)
  })

  test("'Use a recovery code instead' focuses 'Recovery code' and sends it trimmed; 'Back' goes back", async () => {
    const sent: unknown[] = []
    let back = 0
    await render(<TwoFactorStep submit={async (f) => void sent.push(f)} onBack={() => back++} />)
    await click(button('Use a recovery code instead')!)
    const input = byLabel('Recovery code')!
    expect(document.activeElement).toBe(input)
    expect(byLabel('Two-factor code')).toBeFalsy()
    await type(input, '  abcde-fghjk ')
    await submit(container.querySelector('form')!)
    expect(sent).toEqual([{ recoveryCode: 'abcde-fghjk' }])
    await click(button('Use your authenticator app instead')!)
    expect(document.activeElement).toBe(byLabel('Two-factor code')!)
    await click(button('Back')!)
    expect(back).toBe(1)
  })
})

describe('Settings → Account → Two-factor authentication', () => {
  const user = { id: 7, email: 'gwen@example.com', name: 'Gwen', hasPassword: false, twoFactorEnabled: true }
  const access = { userRole: 'product+gd', hasAccess: true }

  test('an account without a password turns it off with a current code', async () => {
    me.value = { user, access } as never
    answer = (method, path) =>
      path === '/api/me'
        ? { body: { user, access } }
        : method === 'DELETE'
          ? { body: { ok: true, message: 'Two-factor authentication is off.' } }
          : { status: 404, body: {} }
    await render(<TwoFactorSection />)
    expect(container.querySelector('h4')!.textContent).toBe('Two-factor authentication')
    expect(container.querySelector('[data-testid=two-factor-status]')!.textContent).toBe('On')
    await click(button('Turn off')!)
    expect(byLabel('Password')).toBeFalsy()
    const code = byLabel('Two-factor code')!
    expect(document.activeElement).toBe(code)
    await type(code, '246810')
    await submit(container.querySelector('form')!)
    expect(requests.at(-1)).toEqual({ method: 'DELETE', path: '/api/me/2fa', body: { code: '246810' } })
    expect(container.querySelector('[data-testid=two-factor-status]')!.textContent).toBe('Off')
    expect(me.peek()!.user.twoFactorEnabled).toBe(false)
    expect(toasts.value[0]!.description).toBe('Two-factor authentication is off.')
  })

  test("'Turn on' shows the QR code as an image and the key as text; 'Confirm' shows the 10 recovery codes once", async () => {
    const off = { ...user, hasPassword: true, twoFactorEnabled: false }
    me.value = { user: off, access } as never
    const codes = Array.from({ length: 10 }, (_, i) => `CODE${i}-XXXXX`)
    answer = (_method, path) =>
      path === '/api/me'
        ? { body: { user: off, access } }
        : path === '/api/me/2fa'
          ? { body: { secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP', otpauthUrl: 'otpauth://totp/x', qrSvg: '<svg/>' } }
          : { body: { recoveryCodes: codes } }
    await render(<TwoFactorSection />)
    expect(container.querySelector('[data-testid=two-factor-status]')!.textContent).toBe('Off')
    await click(button('Turn on')!)
    // the password comes first (security review item 1); a wrong one is said in words and nothing starts
    expect(container.textContent).toContain('Enter your password to turn on two-factor authentication.')
    const wrong = answer
    answer = (method, path) =>
      path === '/api/me/2fa' ? { status: 400, body: { error: { code: 'INVALID_PASSWORD', message: 'Current password is incorrect.' } } } : wrong(method, path)
    await type(byLabel('Password')!, 'not-it')
    await submit(container.querySelector('form')!)
    expect(container.querySelector('[role=alert]')!.textContent).toBe('Current password is incorrect.')
    expect(container.querySelector('img')).toBeNull()
    answer = wrong
    await type(byLabel('Password')!, 'the-password')
    await submit(container.querySelector('form')!)
    expect(requests.at(-1)).toEqual({ method: 'POST', path: '/api/me/2fa', body: { password: 'the-password' } })
    const img = container.querySelector('img')!
    expect(img.getAttribute('alt')).toBe('QR code for your authenticator app')
    expect(img.getAttribute('src')).toBe(qrImageSrc('<svg/>'))
    expect(container.querySelector('[data-testid=two-factor-secret]')!.textContent).toBe('JBSW Y3DP EHPK 3PXP JBSW Y3DP EHPK 3PXP')
    await type(byLabel('Enter the 6-digit code the app shows')!, '135790')
    await submit(container.querySelector('form')!)
    expect(requests.at(-1)).toEqual({ method: 'POST', path: '/api/me/2fa/enable', body: { code: '135790' } })
    expect([...container.querySelectorAll('[data-testid=recovery-codes] li')].map((li) => li.textContent)).toEqual(codes)
    expect(container.querySelector('[data-testid=two-factor-status]')!.textContent).toBe('On')
    expect(button('Download .txt')!.getAttribute('download')).toBe('dibs-recovery-codes.txt')
    await click(button('Done')!)
    expect(container.querySelector('[data-testid=recovery-codes]')).toBeNull()
    expect(button('Turn off')).toBeTruthy()
  })
})
