// `dibs sources …`: the sources of both forums from the shell, over the same functions as the admin's Logs page
// (src/scanner/source-admin.ts): list, add, remove, enable, disable, rotate a push source's secret, test (one fetch,
// nothing stored) and the presets. The CLI writes the table; a running server picks the change up without a
// restart (the Reddit client at its next scan, the feed poller at its next tick, the ingest route at the next
// push). The first command on a fresh DATA_DIR seeds the table from the environment, as a first start does.
// Each state-changing subcommand is audited by src/commands.ts.
import { UsageError, flag, type Args } from '../cli/args'
import type { Command, WithContext } from '../cli/command'
import type { Config } from '../config'
import { formatTable } from '../cli/table'
import { AppError } from '../lib/errors'
import { askServer } from '../realtime/relay'
import { PRESETS, type Preset } from '../sources/presets'
import { listSources, seedSources } from '../sources/store'
import { sourceView, type SourceView } from '../sources/view'
import { SourceRunner, type Preview } from './feeds'
import type { ScanDeps } from './scan'
import { addSource, editSource, removeSource, rotateSourceSecret } from './source-admin'

const relayed = () => '(the running server was told)'

const byServer = '(fetched by the server on this DATA_DIR: its politeness interval per host, its Reddit rate budget)'

/** The flags each subcommand takes; any other is a usage error (a mistyped `--subreddit` must not be ignored). */
const FLAGS: Record<string, string[]> = {
  list: ['json'],
  add: ['forum', 'kind', 'url', 'subreddits', 'preset', 'name', 'disabled'],
  remove: [],
  enable: [],
  disable: [],
  'rotate-secret': [],
  test: ['json'],
  presets: ['json'],
}

function checkFlags(sub: string, args: Args): void {
  const allowed = FLAGS[sub]!
  for (const [name, value] of Object.entries(args.flags)) {
    if (!allowed.includes(name))
      throw new UsageError(`sources ${sub} takes no --${name}${allowed.length ? ` (it takes ${allowed.map((f) => `--${f}`).join(', ')})` : ''}`)
    if (value === true && !['json', 'disabled'].includes(name)) throw new UsageError(`--${name} needs a value`)
  }
}

/** The source id of `dibs sources <sub> ID`. */
function sourceId(args: Args): number {
  const [sub, id] = args._
  if (id === undefined) throw new UsageError(`sources ${sub} needs the source's id (dibs sources list shows it)`)
  if (!/^\d{1,9}$/.test(id) || Number(id) < 1) throw new UsageError(`a source id is a number, got "${id}"`)
  return Number(id)
}

/** Where a source's posts come from, in one cell: its feed URL, its subreddits, or its ingest URL. */
const address = (s: SourceView) => (s.kind === 'feed' ? (s.url ?? '-') : s.kind === 'reddit' ? `r/${s.subreddits.join('+')}` : (s.ingestUrl ?? '-'))

const presetAddress = (p: Preset) => (p.kind === 'reddit' ? `r/${p.subreddit}` : p.urlPattern)

const describe = (s: SourceView) => `source ${s.id}: ${s.name} (${s.forum}, ${s.kind}, ${s.enabled ? 'enabled' : 'disabled'})`

function printSecret(id: number, secret: string): void {
  console.log(`secret: ${secret}`)
  console.log(`This secret is shown once and will not be shown again: keep it now (dibs sources rotate-secret ${id} makes a new one).`)
}

function printPreview(id: number, p: Preview): void {
  const from = [p.title ? `"${p.title}"` : null, p.software].filter(Boolean).join(', ')
  console.log(`source ${id}: ${p.fetched} post(s) read${from ? ` from ${from}` : ''}; nothing stored`)
  for (const note of p.notes) console.log(`note: ${note}`)
  if (p.posts.length === 0) return
  const rows = p.posts.map((post) => [
    post.classifiedAs,
    post.price === null ? '-' : `$${post.price}`,
    post.location ?? '-',
    post.state,
    post.error ? `${post.title} (unreadable: ${post.error})` : post.title,
  ])
  for (const line of formatTable(['classified as', 'price', 'location', 'state', 'title'], rows)) console.log(line)
}

/** What an operator gives to `sources add`, as the admin route's body. */
function addInput(args: Args) {
  return {
    forum: flag(args, 'forum'),
    kind: flag(args, 'kind'),
    url: flag(args, 'url'),
    subreddits: flag(args, 'subreddits'),
    preset: flag(args, 'preset'),
    name: flag(args, 'name'),
    enabled: args.flags.disabled === undefined,
  }
}

type Sub = (deps: ScanDeps, args: Args) => Promise<number | void> | number | void

const subcommands: Record<string, Sub> = {
  async list(deps, args) {
    const views = (await listSources(deps)).map((s) => sourceView(deps, s))
    if (args.flags.json) {
      console.log(JSON.stringify(views, null, 2))
      return
    }
    if (views.length === 0) {
      console.log('(no sources: dibs sources add makes one)')
      return
    }
    const rows = views.map((s) => [String(s.id), s.forum, s.kind, s.enabled ? 'yes' : 'no', s.name, address(s), s.health.summary])
    for (const line of formatTable(['id', 'forum', 'kind', 'enabled', 'name', 'address', 'health'], rows)) console.log(line)
  },
  async add(deps, args) {
    const { source, secret } = await addSource(deps, addInput(args))
    console.log(`added ${describe(source)}`)
    if (source.kind === 'push' && secret !== null) {
      console.log(`ingest URL: ${source.ingestUrl} (POST, signed: README "Pushed posts")`)
      printSecret(source.id, secret)
    } else console.log(`dibs sources test ${source.id} shows what it reads; a running server reads it without a restart`)
  },
  async remove(deps, args) {
    const s = await removeSource(deps, sourceId(args))
    console.log(`removed source ${s.id}: ${s.name}; the posts it brought stay`)
  },
  async enable(deps, args) {
    console.log(describe(await editSource(deps, sourceId(args), { enabled: true })))
  },
  async disable(deps, args) {
    console.log(describe(await editSource(deps, sourceId(args), { enabled: false })))
  },
  async 'rotate-secret'(deps, args) {
    const id = sourceId(args)
    const { secret } = await rotateSourceSecret(deps, id)
    console.log(`source ${id} has a new secret; the old one stops working now`)
    printSecret(id, secret)
  },
}

/** `dibs sources test ID`: beside a running server that server fetches (its politeness per host, its Reddit budget); else this process. */
async function testSource(config: Config, args: Args, withContext: WithContext<ScanDeps>): Promise<void> {
  const id = sourceId(args)
  const delegated = await askServer<Preview>(config, 'preview', { id })
  const preview = delegated.ran ? delegated.result : await withContext((deps) => (seedSources(deps), new SourceRunner(deps).testSaved(id)), relayed)
  if (args.flags.json) {
    console.log(JSON.stringify(preview, null, 2))
    return
  }
  if (delegated.ran) console.log(byServer)
  printPreview(id, preview)
}

function printPresets(args: Args): void {
  if (args.flags.json) {
    console.log(JSON.stringify(PRESETS, null, 2))
    return
  }
  console.log('Presets (dibs sources add --preset NAME; a feed preset needs --url, the board’s own address):')
  const presets = PRESETS.presets.map((p) => [p.name, p.kind, p.forum, presetAddress(p), p.title])
  for (const line of formatTable(['name', 'kind', 'forum', 'address', 'title'], presets)) console.log(`  ${line}`)
  console.log('')
  console.log('Pairs (FORUM_PRESET=NAME at first start):')
  const pairs = PRESETS.pairs.map((p) => [p.name, p.accessories, p.deals, `${p.title}${p.default ? ' (default)' : ''}`])
  for (const line of formatTable(['name', 'accessories', 'deals', 'title'], pairs)) console.log(`  ${line}`)
}

export const sourcesCommand: Command<ScanDeps> = {
  name: 'sources',
  usage: 'dibs sources list|add|remove|enable|disable|rotate-secret|test|presets',
  summary:
    'Where the forums get their posts: list [--json] · add --forum F --kind K [--url U | --subreddits a,b] [--preset P] [--name N] [--disabled] · remove|enable|disable|rotate-secret|test <id> · presets',
  async run(config, args, withContext) {
    const sub = args._[0]
    if (sub === undefined || !Object.hasOwn(FLAGS, sub)) throw new UsageError(`sources needs a subcommand: ${Object.keys(FLAGS).join(', ')}`)
    checkFlags(sub, args)
    if (args._.length > (['list', 'add', 'presets'].includes(sub) ? 1 : 2)) throw new UsageError(`sources ${sub}: unexpected "${args._.at(-1)}"`)
    if (sub === 'presets') return printPresets(args)
    try {
      if (sub === 'test') return await testSource(config, args, withContext)
      const fn = subcommands[sub]!
      return await withContext((deps) => (seedSources(deps), fn(deps, args)), relayed)
    } catch (err) {
      if (err instanceof AppError) throw new Error(err.message)
      throw err
    }
  },
}
