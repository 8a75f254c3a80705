// SSRF rules for the URLs of webhook / ntfy / Discord channels: scheme, credentials, literal
// addresses in every private range, and host names that resolve inward.
import { describe, expect, test } from 'bun:test'
import { checkPublicUrl, isPrivateAddress } from '../../../src/lib/public-url'

const dns: Record<string, string[]> = {
  'hooks.example.com': ['93.184.215.14'],
  'sneaky.example.com': ['127.0.0.1'],
  'mixed.example.com': ['93.184.215.14', '10.1.2.3'],
  'v6-local.example.com': ['::1'],
}
const resolve = async (host: string) => {
  const found = dns[host]
  if (!found) throw new Error('ENOTFOUND')
  return found
}
const check = (url: string, allowPrivate = false) => checkPublicUrl(url, { allowPrivate, resolve })

describe('checkPublicUrl', () => {
  const refused: [string, string][] = [
    ['http://hooks.example.com/x', 'https://'],
    ['ftp://hooks.example.com/x', 'https://'],
    ['https://user:pw@hooks.example.com/x', 'user name or password'],
    ['https://token@hooks.example.com/x', 'user name or password'],
    ['https://127.0.0.1/x', 'private network'],
    ['https://127.9.9.9/x', 'private network'],
    ['https://2130706433/x', 'private network'], // 127.0.0.1 as one number
    ['https://0x7f.0.0.1/x', 'private network'],
    ['https://[::1]/x', 'private network'],
    ['https://[::ffff:127.0.0.1]/x', 'private network'],
    ['https://10.0.0.5/x', 'private network'],
    ['https://172.16.0.1/x', 'private network'],
    ['https://172.31.255.255/x', 'private network'],
    ['https://192.168.1.10/x', 'private network'],
    ['https://169.254.169.254/latest/meta-data', 'private network'],
    ['https://100.64.0.1/x', 'private network'],
    ['https://0.0.0.0/x', 'private network'],
    ['https://[fc00::1]/x', 'private network'],
    ['https://[fd12:3456::1]/x', 'private network'],
    ['https://[fe80::1]/x', 'private network'],
    ['https://localhost/x', 'private network'],
    ['https://api.localhost/x', 'private network'],
    ['https://sneaky.example.com/x', 'private network'],
    ['https://mixed.example.com/x', 'private network'],
    ['https://v6-local.example.com/x', 'private network'],
    ['https://nowhere.example.com/x', 'could not be resolved'],
    ['not a url', 'full URL'],
  ]
  for (const [url, reason] of refused)
    test(`refuses ${url}`, async () => {
      const r = await check(url)
      expect(r.ok).toBe(false)
      if (!r.ok) expect(r.reason).toContain(reason)
    })
  const allowed = ['https://hooks.example.com/x', 'https://93.184.215.14/hook', 'https://172.32.0.1/x', 'https://[2606:4700::1111]/x']
  for (const url of allowed) test(`allows ${url}`, async () => expect((await check(url)).ok).toBe(true))

  test('CHANNELS_ALLOW_PRIVATE lets http and loopback through, never credentials', async () => {
    expect((await check('http://127.0.0.1:8080/hook', true)).ok).toBe(true)
    expect((await check('https://sneaky.example.com/x', true)).ok).toBe(true)
    expect((await check('http://u:p@127.0.0.1/x', true)).ok).toBe(false)
  })
})

describe('isPrivateAddress', () => {
  test.each([
    ['127.0.0.1', true],
    ['::1', true],
    ['10.255.0.1', true],
    ['172.20.1.1', true],
    ['192.168.0.1', true],
    ['169.254.1.1', true],
    ['fc00::1', true],
    ['fdff::1', true],
    ['::ffff:10.0.0.1', true],
    ['8.8.8.8', false],
    ['2001:4860:4860::8888', false],
  ])('%p → %p', (a, priv) => expect(isPrivateAddress(a)).toBe(priv))
})
