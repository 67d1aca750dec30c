ALTER TABLE "notifications" DROP CONSTRAINT "notifications_kind_check";--> statement-breakpoint
ALTER TABLE "posts" ADD COLUMN "quote_of" uuid;--> statement-breakpoint
ALTER TABLE "posts" ADD COLUMN "quote_detached_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "posts" ADD COLUMN "quote_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "posts_quote_of_idx" ON "posts" USING btree ("quote_of","created_at","id") WHERE "posts"."quote_of" is not null;--> statement-breakpoint
ALTER TABLE "posts" ADD CONSTRAINT "posts_quote_count_check" CHECK ("posts"."quote_count" >= 0);--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_kind_check" CHECK ("notifications"."kind" in ('like', 'repost', 'reply', 'mention', 'follow', 'follow_request', 'follow_accepted', 'report', 'export_ready', 'quote'));