-- Password reset by mail and the message recovery key (docs/security.md, "Password reset and the recovery key").
-- A second copy of the member's private key, wrapped in their browser under a key derived from a random recovery key
-- the server never sees (wr1.<iv>.<ciphertext>). Null until the member makes one; dropped when a reset replaces the
-- key pair (the copy would open a key that is no longer theirs).
ALTER TABLE "users" ADD COLUMN "message_recovery_key" text;--> statement-breakpoint
-- Single-use reset links: only the SHA-256 of the token is kept. One outstanding per member (a new request replaces
-- it); a password change or a reset deletes them.
CREATE TABLE "password_reset_tokens" (
	"id" uuid PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"token_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "password_reset_tokens_token_hash_key" UNIQUE("token_hash")
);
--> statement-breakpoint
ALTER TABLE "password_reset_tokens" ADD CONSTRAINT "password_reset_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "password_reset_tokens_user_idx" ON "password_reset_tokens" USING btree ("user_id");
