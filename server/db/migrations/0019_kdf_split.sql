-- The password is stretched in the browser (argon2id, src/crypto/kdf.ts) into an authentication secret, which the
-- server hashes in place of the password, and a wrapping key that never leaves the browser. users.kdf holds the
-- member's argon2id settings and salt ({algorithm, salt, memory, iterations, parallelism}), served before sign-in by
-- POST /auth/prelogin. Null for an account from before: it signs in with its password once and moves over.
ALTER TABLE "users" ADD COLUMN "kdf" jsonb;--> statement-breakpoint
-- Secrets the server makes for itself on first use and shares between its processes through the database: today the
-- key of the made-up prelogin answer for names no account has (server/modules/auth/prelogin.ts).
CREATE TABLE "server_secrets" (
	"name" text PRIMARY KEY NOT NULL,
	"value" text NOT NULL
);
