// Writes the PostgreSQL migrations (issue 29 §2) into drizzle-pg/, in drizzle-kit's own layout
// (NNNN_<name>.sql, meta/_journal.json, meta/NNNN_snapshot.json), from the schema derived in
// src/db/schema-pg.ts: the difference between the newest snapshot and today's schema becomes the next
// migration. `bun run db:generate` runs it after drizzle-kit's SQLite migrations, then embeds both.
//
// `bun scripts/generate-pg-migrations.ts [name]`   (name: the migration's tag after its number)
// `bun scripts/generate-pg-migrations.ts --check`  exits 1 when the schema has changes no migration holds
import { generateDrizzleJson, generateMigration } from 'drizzle-kit/api'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { pgSchema } from '../src/db/schema-pg'

const OUT = join(import.meta.dir, '..', 'drizzle-pg')
const META = join(OUT, 'meta')
type Journal = { version: string; dialect: string; entries: { idx: number; version: string; when: number; tag: string; breakpoints: boolean }[] }

const journalFile = join(META, '_journal.json')
const journal: Journal = existsSync(journalFile)
  ? (JSON.parse(readFileSync(journalFile, 'utf8')) as Journal)
  : { version: '7', dialect: 'postgresql', entries: [] }
const last = journal.entries.at(-1)
const previous = last
  ? (JSON.parse(readFileSync(join(META, `${last.tag.slice(0, 4)}_snapshot.json`), 'utf8')) as ReturnType<typeof generateDrizzleJson>)
  : generateDrizzleJson({})
const current = generateDrizzleJson(pgSchema, previous.id)
const statements = await generateMigration(previous, current)

if (process.argv.includes('--check')) {
  if (statements.length > 0) {
    console.error(`drizzle-pg/ lacks ${statements.length} statement(s) of today's schema: run bun run db:generate`)
    process.exit(1)
  }
  console.log('drizzle-pg/ holds the whole schema')
  process.exit(0)
}
if (statements.length === 0) {
  console.log('PostgreSQL: no schema changes')
  process.exit(0)
}
const idx = journal.entries.length
const number = String(idx).padStart(4, '0')
const name = (process.argv[2] ?? 'schema').replace(/[^a-z0-9_]/gi, '_')
const tag = `${number}_${name}`
mkdirSync(META, { recursive: true })
writeFileSync(join(OUT, `${tag}.sql`), statements.join('\n--> statement-breakpoint\n') + '\n')
writeFileSync(join(META, `${number}_snapshot.json`), JSON.stringify(current, null, 2) + '\n')
journal.entries.push({ idx, version: '7', when: Date.now(), tag, breakpoints: true })
writeFileSync(journalFile, JSON.stringify(journal, null, 2) + '\n')
console.log(`PostgreSQL: drizzle-pg/${tag}.sql, ${statements.length} statement(s)`)
