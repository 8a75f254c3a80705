// compose.yaml (issue 29 §5: PostgreSQL, three Dibs nodes and a proxy) is valid YAML in compose's shape
// and agrees with the code: each node gets DATABASE_URL and every secret the nodes must share
// (src/config.ts SHARED_SECRETS), the proxy sends to every node, and each required variable is named
// in the file's header.
import { expect, test } from 'bun:test'
import { join } from 'node:path'
import { SHARED_SECRETS } from '../../src/config'

type Service = { build?: string; image?: string; environment?: Record<string, string>; depends_on?: unknown; configs?: { source: string }[] }
type Compose = { services: Record<string, Service>; configs: Record<string, { content: string }> }

const text = await Bun.file(join(import.meta.dir, '../../compose.yaml')).text()
const compose = Bun.YAML.parse(text) as Compose

test('three Dibs nodes share one PostgreSQL and every shared secret from .env', () => {
  const nodes = Object.entries(compose.services).filter(([, s]) => s.build === '.')
  expect(nodes.map(([name]) => name)).toEqual(['dibs1', 'dibs2', 'dibs3'])
  for (const [, s] of nodes) {
    expect(s.environment!.DATABASE_URL).toMatch(/^postgres:\/\/dibs:\$\{POSTGRES_PASSWORD:\?[^}]+\}@db:5432\/dibs$/)
    for (const name of SHARED_SECRETS) expect(s.environment![name]).toBe(`\${${name}:?set ${name} in .env}`)
    expect(s.depends_on).toEqual({ db: { condition: 'service_healthy' } })
  }
  expect(compose.services.db!.image).toMatch(/^postgres:\d+$/)
})

test("the proxy's Caddyfile sends to every node and checks /healthz", () => {
  const proxy = compose.services.proxy!
  const caddyfile = compose.configs[proxy.configs![0]!.source]!.content
  expect(caddyfile).toContain('reverse_proxy dibs1:3000 dibs2:3000 dibs3:3000 {')
  expect(caddyfile).toContain('health_uri /healthz')
})

test('every variable the file requires is named in its header', () => {
  const header = text.slice(0, text.indexOf('\nx-dibs'))
  const required = new Set([...text.matchAll(/\$\{([A-Z_]+):\?/g)].map((m) => m[1]!))
  expect([...required].sort()).toEqual(['APP_URL', 'POSTGRES_PASSWORD', ...SHARED_SECRETS].sort())
  for (const name of required) expect(header).toContain(name)
})
