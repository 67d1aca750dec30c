-- Deleting an account (docs/product.md, "Deleting an account"). The request marks the member deleted (hidden
-- everywhere at once, signed out everywhere); the `account.delete` job then removes their rows in pages and finally
-- the users row itself.
ALTER TABLE "users" ADD COLUMN "deleted_at" timestamp with time zone;--> statement-breakpoint
-- The few members being deleted, for the visibility predicate's once-per-statement "hidden authors" set.
CREATE INDEX "users_deleted_idx" ON "users" USING btree ("id") WHERE "deleted_at" IS NOT NULL;--> statement-breakpoint
-- A deleted member's username, held for 30 days (lowercased): nobody can take it and pass for them at once.
CREATE TABLE "held_usernames" (
	"name" text PRIMARY KEY NOT NULL,
	"until" timestamp with time zone NOT NULL
);--> statement-breakpoint
CREATE INDEX "held_usernames_until_idx" ON "held_usernames" USING btree ("until");--> statement-breakpoint
-- Reports outlive the members they name: a deleted reporter or reported member reads as "Deleted member".
ALTER TABLE "reports" ALTER COLUMN "reporter_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "reports" ALTER COLUMN "target_user_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "reports" DROP CONSTRAINT "reports_reporter_id_users_id_fk";--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_reporter_id_users_id_fk" FOREIGN KEY ("reporter_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reports" DROP CONSTRAINT "reports_target_user_id_users_id_fk";--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_target_user_id_users_id_fk" FOREIGN KEY ("target_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;
