// The delivery settings of the terms that produced a match, read when it fans out (the rules that
// apply them are ./delivery.ts, which the UI imports too and so stays free of the database layer).
import type { OwnerDb } from '../db/async-db'
import { termIdsOfMatch } from '../matches/store'
import { termsByIds } from '../terms/reads'
import { termSettingsOf, type TermSettings } from './delivery'

/** The settings of the terms that produced a match (match_terms: src/matches/; the terms: src/terms/reads.ts). */
export async function matchTermSettings(deps: OwnerDb, matchId: number): Promise<TermSettings[]> {
  return (await termsByIds(deps, await termIdsOfMatch(deps, matchId))).map(termSettingsOf)
}
