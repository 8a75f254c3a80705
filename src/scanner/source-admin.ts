// Adding, editing, removing sources: the checks and the effects the admin's Logs page and `dibs sources` share.
// A feed URL is checked like an outgoing channel URL when it is saved (http(s), no credentials, and unless
// ALLOW_PRIVATE_SOURCES=1 no loopback, private or link-local address after resolving the name) and again on every
// fetch and redirect (src/sources/feed-fetch.ts). Each change is audited by the caller (src/audit/log.ts) and
// applies without a restart: the Reddit client reads the enabled reddit sources at its next poll, the feed poller
// reads the table at each tick.
import { asAsync } from '../db/async-sqlite'
import type { Deps } from '../deps'
import { badRequest, conflict, notFound } from '../lib/errors'
import { checkPublicUrl, type Resolver } from '../lib/public-url'
import { pairByName, pairLabels, type PairChoice } from '../sources/presets'
import { storedSettingAtStartSqlite, storeSetting } from '../settings/service'
import {
  deleteSource,
  getSource,
  insertSource,
  listSources,
  readSourceInput,
  rotateSecret,
  setEnabled,
  updateSource,
  type SourceInput,
  type SourceRow,
} from '../sources/store'
import { sourceView, type SourceView } from '../sources/view'
import type { PollOutcome, SourceRunner } from './feeds'

/** Reads an admin's or operator's input and checks its feed URL's address; a 400 naming the field otherwise. */
export async function checkedInput(deps: Pick<Deps, 'config'>, raw: unknown, before: SourceRow | null, resolve?: Resolver): Promise<SourceInput> {
  const r = readSourceInput(raw, before)
  if (!r.ok) throw badRequest(`${r.field}: ${r.message}`, 'INVALID_SOURCE', { field: r.field })
  const input = r.value
  if (input.kind === 'feed' && input.url) {
    const check = await checkPublicUrl(input.url, { allowPrivate: deps.config.allowPrivateSources, allowHttp: true, resolve })
    if (!check.ok) throw badRequest(`url: ${check.reason}`, 'INVALID_SOURCE', { field: 'url' })
  }
  return input
}

export type Added = { source: SourceView; secret: string | null; ingested: PollOutcome | null }

/** A new source; a push source's secret comes back once. With the server's runner, the posts its preview showed are stored and matched now. */
export async function addSource(deps: Pick<Deps, 'db' | 'config' | 'now'>, raw: unknown, runner?: SourceRunner): Promise<Added> {
  const input = await checkedInput(deps, raw, null)
  const row = await insertSource(deps, input, deps.now().getTime())
  const ingested = (await runner?.saved(row)) ?? null
  return { source: sourceView(deps, (await getSource(deps, row.id))!), secret: row.secret, ingested }
}

export async function editSource(deps: Pick<Deps, 'db' | 'config' | 'now'>, id: number, raw: unknown, runner?: SourceRunner): Promise<SourceView> {
  const before = await getSource(deps, id)
  if (!before) throw notFound('No such source.')
  const input = await checkedInput(deps, raw, before)
  const row = await updateSource(deps, before, input, deps.now().getTime())
  await runner?.saved(row)
  return sourceView(deps, row)
}

export async function removeSource(deps: Pick<Deps, 'db'>, id: number, runner?: SourceRunner): Promise<SourceRow> {
  const before = await getSource(deps, id)
  if (!before || !(await deleteSource(deps, id))) throw notFound('No such source.')
  await runner?.applied()
  return before
}

export async function rotateSourceSecret(deps: Pick<Deps, 'db' | 'now'>, id: number): Promise<{ secret: string }> {
  const s = await getSource(deps, id)
  if (!s) throw notFound('No such source.')
  if (s.kind !== 'push') throw conflict('Only a push source has a secret.', 'NOT_PUSH')
  return { secret: await rotateSecret(deps, id, deps.now().getTime()) }
}

/** The admin's switch of the forum pair (system_settings), applied at every start after the environment's. */
export const FORUM_PRESET_SETTING = 'forum_preset'

/** The pair's names go into every text of this process at once: PRODUCT_NAME, the deals label, the forum names. The dashboard's URL stays. */
function applyLabels(config: Deps['config'], choice: PairChoice): void {
  const labels = pairLabels(choice)
  config.productName = labels.productName
  config.dealsLabel = labels.dealsLabel
  config.forums = labels.forums
  config.forumPreset = choice
}

/** At start: a pair an admin switched to earlier wins over FORUM_PRESET. */
export function applyStoredForumPreset(deps: Pick<Deps, 'db' | 'config'>): void {
  const v = storedSettingAtStartSqlite(deps, FORUM_PRESET_SETTING)?.value as { pair?: unknown } | undefined
  const choice = typeof v?.pair === 'string' ? pairByName(v.pair) : null
  if (choice) applyLabels(deps.config, choice)
}

export type Switched = { pair: string; enabled: string[]; added: string[]; disabled: string[] }

/**
 * Switches both forums to a ready pair without a restart: the pair's two sources are enabled (added when missing; a
 * feed preset without its board's URL is added disabled, for the admin to complete), every other source of the two
 * forums is disabled (kept, to switch back), and the labels in every text follow.
 */
export async function switchForumPreset(deps: Pick<Deps, 'db' | 'config' | 'now'>, name: string, runner?: SourceRunner): Promise<Switched> {
  const choice = pairByName(name.trim().toLowerCase())
  if (!choice) throw badRequest(`pair: "${name.slice(0, 40)}" is not a preset pair (dibs sources presets lists them)`, 'INVALID_SOURCE', { field: 'pair' })
  const at = deps.now()
  const out: Switched = { pair: choice.pair.name, enabled: [], added: [], disabled: [] }
  await asAsync(deps.db).transaction(async (tx) => {
    const rows = await listSources({ db: tx })
    for (const p of [choice.accessories, choice.deals]) {
      const mine = rows.filter((r) => r.preset === p.name && r.forum === p.forum)
      for (const r of rows) {
        if (r.forum !== p.forum || !r.enabled || mine.includes(r)) continue
        await setEnabled({ db: tx }, r.id, false, at.getTime())
        out.disabled.push(r.name)
      }
      if (mine.length === 0) {
        const input: SourceInput = {
          forum: p.forum,
          kind: p.kind,
          name: p.label,
          url: null,
          subreddits: p.kind === 'reddit' ? [p.subreddit] : [],
          preset: p.name,
          enabled: p.kind === 'reddit',
        }
        out.added.push((await insertSource({ db: tx }, input, at.getTime())).name)
      } else
        for (const r of mine) {
          if (r.enabled || (r.kind === 'feed' && !r.url)) continue
          await setEnabled({ db: tx }, r.id, true, at.getTime())
          out.enabled.push(r.name)
        }
    }
    await storeSetting(
      { db: tx },
      FORUM_PRESET_SETTING,
      { active: true, pair: choice.pair.name },
      'The forum pair an admin switched to (Admin → Logs → Sources)',
      at,
    )
  })
  applyLabels(deps.config, choice)
  await runner?.applied()
  return out
}
