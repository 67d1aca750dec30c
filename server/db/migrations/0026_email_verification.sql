-- Email verification (server/modules/email; docs/product.md, "Email"). email_verified_at: when the member opened a
-- link mailed to their current address; null means not confirmed. Every account that exists before this migration is
-- counted as verified (its creation time), so nobody who is already posting is suddenly nagged by the banner or, with
-- REQUIRE_VERIFIED_EMAIL on, stopped from posting. pending_email: a new address asked for in Settings -> Account, not
-- confirmed yet; the email changes only when the link mailed to it is opened.
ALTER TABLE "users" ADD COLUMN "email_verified_at" timestamp with time zone;--> statement-breakpoint
UPDATE "users" SET "email_verified_at" = "created_at";--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "pending_email" text;--> statement-breakpoint
-- One live link per member: the SHA-256 of a random token (the token itself is only in the mail), the address it
-- confirms, and when it stops working. Issuing a new one deletes the member's older ones; opening it deletes it.
CREATE TABLE "email_tokens" (
	"id" uuid PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"token_hash" text NOT NULL,
	"purpose" text DEFAULT 'verify' NOT NULL,
	"email" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "email_tokens_token_hash_key" UNIQUE("token_hash"),
	CONSTRAINT "email_tokens_purpose_check" CHECK ("purpose" in ('verify'))
);
--> statement-breakpoint
ALTER TABLE "email_tokens" ADD CONSTRAINT "email_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "email_tokens_user_idx" ON "email_tokens" USING btree ("user_id");
