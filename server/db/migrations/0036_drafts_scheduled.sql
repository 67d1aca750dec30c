CREATE TABLE "draft_media" (
	"id" uuid PRIMARY KEY NOT NULL,
	"draft_id" uuid NOT NULL,
	"position" smallint NOT NULL,
	"kind" text NOT NULL,
	"storage_key" text NOT NULL,
	"thumbnail_key" text,
	"mime" text NOT NULL,
	"width" integer,
	"height" integer,
	"size_bytes" integer NOT NULL,
	"alt" text,
	CONSTRAINT "draft_media_draft_position_key" UNIQUE("draft_id","position"),
	CONSTRAINT "draft_media_kind_check" CHECK ("draft_media"."kind" in ('image', 'video')),
	CONSTRAINT "draft_media_position_check" CHECK ("draft_media"."position" between 0 and 7)
);
--> statement-breakpoint
CREATE TABLE "drafts" (
	"id" uuid PRIMARY KEY NOT NULL,
	"author_id" uuid NOT NULL,
	"content" text DEFAULT '' NOT NULL,
	"visibility" text DEFAULT 'public' NOT NULL,
	"sensitive" boolean DEFAULT false NOT NULL,
	"sensitive_reason" text,
	"scheduled_at" timestamp with time zone,
	"failure" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "drafts_visibility_check" CHECK ("drafts"."visibility" in ('public', 'followers', 'mentioned'))
);
--> statement-breakpoint
ALTER TABLE "draft_media" ADD CONSTRAINT "draft_media_draft_id_drafts_id_fk" FOREIGN KEY ("draft_id") REFERENCES "public"."drafts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "drafts" ADD CONSTRAINT "drafts_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "drafts_author_updated_idx" ON "drafts" USING btree ("author_id","updated_at","id");