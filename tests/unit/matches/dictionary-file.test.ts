// DATA_DIR/dictionary.json: an admin's aliases and categories reach both sides of matching (the
// posts the service prepares and the terms its index compiles); an invalid file is one log line and
// the built-in dictionary.
import { afterEach, beforeEach, expect, test } from 'bun:test'
import { rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { openDb, type OpenedDb } from '../../../src/db/client'
import { recentLogLines } from '../../../src/lib/log'
import { DICTIONARY_FILE, loadDictionary, MatchingService } from '../../../src/matches/matcher'
import { BUILTIN } from '../../../src/matching/dictionary'
import { tempDir } from '../../helpers'

let dir: string
let opened: OpenedDb
beforeEach(() => {
  dir = tempDir()
  opened = openDb(join(dir, 'dibs.db'))
  opened.sqlite.run("INSERT INTO users (id, email) VALUES (1, 'u1@example.com')")
  opened.sqlite.run("INSERT INTO search_terms (user_id, category, term, created_at) VALUES (1, 'wts', 'bravo company', 0), (1, 'wts', 'widget', 0)")
})
afterEach(() => {
  opened.close()
  rmSync(dir, { recursive: true, force: true })
})

const service = () => new MatchingService({ sqlite: opened.sqlite, db: opened.db, now: () => new Date(), config: { dataDir: dir } })
const matched = (m: MatchingService, title: string) => m.match(m.prepare({ title }), 'wts').map((t) => t.text)

test('without a file the built-in dictionary is used', () => {
  expect(loadDictionary(dir)).toBe(BUILTIN)
  expect(matched(service(), '[WTS] BCM upper')).toEqual([])
})

test("an admin's alias and category apply to posts and terms alike", () => {
  writeFileSync(
    join(dir, DICTIONARY_FILE),
    JSON.stringify({ aliases: [{ from: 'bcm', to: 'bravo company' }], categories: [{ id: 'widget', names: ['widget'], members: ['acme 3000'] }] }),
  )
  const m = service()
  expect(matched(m, '[WTS] BCM upper')).toEqual(['bravo company'])
  expect(matched(m, '[WTS] Acme 3000, like new')).toEqual(['widget'])
})

test('an invalid file is reported once and ignored', () => {
  writeFileSync(join(dir, DICTIONARY_FILE), '{"aliases": 3}')
  const before = recentLogLines().lastSeq
  expect(loadDictionary(dir)).toBe(BUILTIN)
  const lines = recentLogLines({ after: before, minLevel: 'warn' }).lines
  expect(lines).toHaveLength(1)
  expect(lines[0]!.text).toContain('dictionary file ignored, using the built-in dictionary')
  expect(lines[0]!.text).toContain('must be a list')
})
