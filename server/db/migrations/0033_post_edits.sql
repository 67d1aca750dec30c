-- A post's versions once it is edited (server/modules/posts/edit-queries.ts): text, audience, sensitive flag and reason,
-- alt texts, each with the time it was made.
CREATE TABLE "post_versions" (
	"id" uuid PRIMARY KEY NOT NULL,
	"post_id" uuid NOT NULL,
	"content" text NOT NULL,
	"visibility" text NOT NULL,
	"sensitive" boolean NOT NULL,
	"sensitive_reason" text,
	"alts" jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "post_versions_visibility_check" CHECK ("post_versions"."visibility" in ('public', 'followers', 'mentioned'))
);
--> statement-breakpoint
ALTER TABLE "post_versions" ADD CONSTRAINT "post_versions_post_id_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."posts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "post_versions_post_created_idx" ON "post_versions" USING btree ("post_id","created_at","id");