// bun run check:openapi — lints the OpenAPI document of the API with Redocly's CLI (redocly.yaml: the
// recommended ruleset). The app runs in-process (a throwaway data folder, as in the tests); its document
// (/api/docs/json) is written to a temp file and `redocly lint` judges it: any error fails. Offline:
// telemetry and update checks are off (redocly.yaml and the environment below).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { call, makeApp, makeDeps } from '../tests/helpers'

const root = join(import.meta.dir, '..')
const deps = await makeDeps()
let spec: unknown
try {
  const res = await call(makeApp(deps), 'GET', '/api/docs/json')
  if (res.status !== 200) throw new Error(`/api/docs/json answered ${res.status}`)
  spec = res.body
} finally {
  deps.close()
}
const dir = mkdtempSync(join(tmpdir(), 'dibs-openapi-'))
const file = join(dir, 'openapi.json')
writeFileSync(file, JSON.stringify(spec, null, 2))
const lint = Bun.spawnSync(
  [
    'bun',
    join(root, 'node_modules/@redocly/cli/bin/cli.js'),
    'lint',
    '--config',
    join(root, 'redocly.yaml'),
    '--format',
    'stylish',
    '--max-problems',
    '1000',
    file,
  ],
  {
    cwd: root,
    stdout: 'inherit',
    stderr: 'inherit',
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', REDOCLY_SUPPRESS_NOTIFICATIONS: 'true' },
  },
)
rmSync(dir, { recursive: true, force: true })
process.exit(lint.exitCode ?? 1)
