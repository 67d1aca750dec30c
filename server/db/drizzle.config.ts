import { defineConfig } from 'drizzle-kit'

// Only `generate` is used: migrations are applied by the server itself at start (server/db/client.ts), because
// drizzle-kit's own `migrate` cannot load PGlite's contrib extensions.
export default defineConfig({
  dialect: 'postgresql',
  schema: './server/db/schema.ts',
  out: './server/db/migrations',
})
