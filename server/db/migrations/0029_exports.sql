-- A member's data exports (server/modules/exports): the zip is in DATA_DIR/exports/<id>.zip, served only to its
-- owner until expires_at (7 days after it was ready), when a scheduled job deletes file and row.
CREATE TABLE "exports" (
	"id" uuid PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"status" text DEFAULT 'preparing' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ready_at" timestamp with time zone,
	"expires_at" timestamp with time zone,
	"size_bytes" bigint,
	CONSTRAINT "exports_status_check" CHECK ("exports"."status" in ('preparing', 'ready', 'failed')),
	CONSTRAINT "exports_ready_check" CHECK (("exports"."status" = 'ready') = ("exports"."expires_at" is not null))
);
--> statement-breakpoint
ALTER TABLE "exports" ADD CONSTRAINT "exports_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "exports_user_created_idx" ON "exports" USING btree ("user_id","created_at");--> statement-breakpoint
-- "Your data is ready" is a notification of its own kind.
ALTER TABLE "notifications" DROP CONSTRAINT "notifications_kind_check";--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_kind_check" CHECK ("notifications"."kind" in ('like', 'repost', 'reply', 'mention', 'follow', 'follow_request', 'follow_accepted', 'report', 'export_ready'));
