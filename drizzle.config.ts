import { defineConfig } from 'drizzle-kit'

// `bun run db:generate` writes SQL into drizzle/ and refreshes src/db/migrations.ts,
// which embeds that SQL in the program (applied at startup by src/db/migrate.ts).
export default defineConfig({
  dialect: 'sqlite',
  schema: './src/db/schema.ts',
  out: './drizzle',
})
