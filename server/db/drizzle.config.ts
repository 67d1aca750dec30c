import { defineConfig } from 'drizzle-kit'

// Only `generate` is used: migrations are applied by the server itself at start (server/db/client.ts), because
// drizzle-kit's own `migrate` cannot load PGlite's contrib extensions.
export default defineConfig({
  dialect: 'postgresql',
  // One file per area; every table of every file is in the migrations.
  schema: [
    './server/db/schema.ts',
    './server/db/schema-posts.ts',
    './server/db/schema-social.ts',
    './server/db/schema-messages.ts',
    './server/db/schema-notifications.ts',
    './server/db/schema-analytics.ts',
    './server/db/schema-bookmarks.ts',
    './server/db/schema-reports.ts',
    './server/db/schema-lists.ts',
    './server/db/schema-trust.ts',
    './server/db/schema-secrets.ts',
    './server/db/schema-two-factor.ts',
    './server/db/schema-jobs.ts',
    './server/db/schema-password-reset.ts',
    './server/db/schema-email.ts',
    './server/db/schema-exports.ts',
    './server/db/schema-account-deletion.ts',
    './server/db/schema-pages.ts',
    './server/db/schema-idempotency.ts',
    './server/db/schema-link-previews.ts',
    './server/db/schema-drafts.ts',
    './server/db/schema-polls.ts',
  ],
  out: './server/db/migrations',
})
