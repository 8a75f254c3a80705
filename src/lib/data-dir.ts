// DATA_DIR holds password hashes, emails and push keys, so it is created 700 and every file in it
// 600 (src/main.ts also sets the umask to 077). It is checked once at start, before anything is
// written: a directory the service cannot use stops startup with one line naming the directory and
// the problem ("DATA_DIR /data is not writable by uid 10001"), never a stack trace.
import { accessSync, chmodSync, constants, existsSync, mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'

export class DataDirError extends Error {
  constructor(
    readonly dir: string,
    problem: string,
  ) {
    super(`DATA_DIR ${dir} ${problem}`)
    this.name = 'DataDirError'
  }
}

/**
 * Written and deleted at every start: the one honest test that files can be created here. Opened
 * like the other data files (secrets.json): whoever can place a symlink in DATA_DIR could replace
 * the database already.
 */
const PROBE = '.write-probe'

const uid = () => process.getuid?.() ?? 'unknown'

/** What an errno means for the directory (or the file in it) that raised it. */
export function describeFsError(err: unknown): string {
  switch ((err as { code?: string }).code) {
    case 'EACCES':
    case 'EPERM':
      return `is not writable by uid ${uid()}`
    case 'EROFS':
      return 'is on a read-only file system'
    case 'ENOSPC':
    case 'EDQUOT':
      return 'has no space left'
    case 'ENOTDIR':
      return 'is not a directory'
    case undefined:
    default:
      return `cannot be used: ${(err as Error).message ?? String(err)}`
  }
}

/** The nearest existing ancestor of a path (where a recursive mkdir starts creating). */
function existingAncestor(path: string): string {
  let p = dirname(path)
  while (!existsSync(p) && dirname(p) !== p) p = dirname(p)
  return p
}

/**
 * Creates DATA_DIR (700) if needed and proves it usable: a probe file is written and deleted, and
 * the given files, when they exist, must be readable and writable. Returns a warning when other
 * users can read the directory (it is kept as it is: the operator may have reasons). Throws DataDirError.
 * `tightenUnused`: the default ./data, which a git clone checks out 755, is made 700 while none of
 * `files` is in it yet (its first use), so a newcomer's first start does not warn about itself.
 */
export function prepareDataDir(dir: string, files: string[] = [], opts: { tightenUnused?: boolean } = {}): { warning: string | null } {
  if (!existsSync(dir)) {
    try {
      mkdirSync(dir, { recursive: true, mode: 0o700 })
    } catch (err) {
      throw new DataDirError(dir, `cannot be created: ${existingAncestor(dir)} ${describeFsError(err)}`)
    }
  }
  let stat = statSync(dir)
  if (!stat.isDirectory()) throw new DataDirError(dir, 'is not a directory')
  if (opts.tightenUnused && stat.mode & 0o077 && !files.some((f) => existsSync(join(dir, f)))) {
    try {
      chmodSync(dir, 0o700)
      stat = statSync(dir)
    } catch {} // not ours to change: the warning below says what to do
  }
  const probe = join(dir, PROBE)
  try {
    writeFileSync(probe, 'dibs write probe\n', { mode: 0o600 })
  } catch (err) {
    throw new DataDirError(dir, describeFsError(err))
  } finally {
    try {
      rmSync(probe, { force: true })
    } catch {}
  }
  for (const f of files) {
    const path = join(dir, f)
    if (!existsSync(path)) continue
    try {
      accessSync(path, constants.R_OK | constants.W_OK)
    } catch (err) {
      throw new DataDirError(dir, `has ${f}, which ${describeFsError(err)}`)
    }
  }
  const loose = stat.mode & 0o077
  return {
    warning: loose ? `DATA_DIR ${dir} is open to other users (mode ${(stat.mode & 0o777).toString(8)}); chmod 700 it` : null,
  }
}
