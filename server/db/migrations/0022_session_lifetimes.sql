-- Sessions end (docs/product.md, "Sessions"): expires_at is the absolute end fixed at sign-in; the idle limit follows
-- from remember (src/api/contract/session-lifetimes.ts) and counts from last_seen_at. Both are checked in memory on
-- the cached session and by the periodic sweep. created_ip / last_ip are the client's address at sign-in and at the
-- last recorded use (written with last_seen_at, once a minute). Sessions from before: remembered, ending 90 days
-- after they began.
ALTER TABLE "sessions" ADD COLUMN "remember" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "expires_at" timestamp with time zone;--> statement-breakpoint
UPDATE "sessions" SET "expires_at" = "created_at" + interval '90 days';--> statement-breakpoint
ALTER TABLE "sessions" ALTER COLUMN "expires_at" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "sessions" ALTER COLUMN "remember" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "created_ip" text;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "last_ip" text;--> statement-breakpoint
CREATE INDEX "sessions_expires_at_idx" ON "sessions" USING btree ("expires_at");
