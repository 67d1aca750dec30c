-- Two-factor sign-in with TOTP (docs/security.md, "Two-factor sign-in"). users.two_factor_enabled is a copy of
-- "two_factor.enabled_at is not null", written in the same transaction, so the session's member row (cached, and
-- what CurrentUser is built from) and the login lookup know it without another query.
ALTER TABLE "users" ADD COLUMN "two_factor_enabled" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- One row per member who set 2FA up: the TOTP secret (base32; the server needs it in clear to compute codes),
-- enabled_at null while set up but not confirmed with a code, and last_step the time step of the last accepted code:
-- a code is accepted only for a later step, decided in one conditional UPDATE, so no code works twice.
CREATE TABLE "two_factor" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"secret" text NOT NULL,
	"enabled_at" timestamp with time zone,
	"last_step" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
-- Ten single-use recovery codes per member, SHA-256 of the normalized code (random, 50 bits: no slow hash needed).
CREATE TABLE "recovery_codes" (
	"id" uuid PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"code_hash" text NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
-- A password accepted for an account with 2FA: the pending second step. The ticket goes to the browser (only its hash
-- is kept) with what the sign-in said about the device, so the step can finish in any process. Deleted when used;
-- expired ones are swept on the next sign-in.
CREATE TABLE "sign_in_challenges" (
	"id" uuid PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"ticket_hash" text NOT NULL,
	"session_start" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "sign_in_challenges_ticket_hash_key" UNIQUE("ticket_hash")
);
--> statement-breakpoint
ALTER TABLE "two_factor" ADD CONSTRAINT "two_factor_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recovery_codes" ADD CONSTRAINT "recovery_codes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sign_in_challenges" ADD CONSTRAINT "sign_in_challenges_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "recovery_codes_user_idx" ON "recovery_codes" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "sign_in_challenges_user_idx" ON "sign_in_challenges" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "sign_in_challenges_expires_idx" ON "sign_in_challenges" USING btree ("expires_at");
