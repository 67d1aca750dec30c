-- The instance's own pages (docs/product.md, "Instance pages"): the markdown an admin wrote for /terms and /privacy.
-- No row: the built-in default text is served. One row per page, replaced in place on every save.
CREATE TABLE "instance_pages" (
	"slug" text PRIMARY KEY NOT NULL,
	"body" text NOT NULL,
	"updated_by" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "instance_pages_slug_check" CHECK ("instance_pages"."slug" in ('terms', 'privacy'))
);
--> statement-breakpoint
ALTER TABLE "instance_pages" ADD CONSTRAINT "instance_pages_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;
