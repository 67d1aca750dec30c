CREATE TABLE "post_daily_stats" (
	"post_id" uuid NOT NULL,
	"author_id" uuid NOT NULL,
	"day" date NOT NULL,
	"views" integer DEFAULT 0 NOT NULL,
	"likes" integer DEFAULT 0 NOT NULL,
	"replies" integer DEFAULT 0 NOT NULL,
	"reposts" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "post_daily_stats_pkey" PRIMARY KEY("post_id","day"),
	CONSTRAINT "post_daily_stats_counters_check" CHECK ("post_daily_stats"."views" >= 0 and "post_daily_stats"."likes" >= 0 and "post_daily_stats"."replies" >= 0 and "post_daily_stats"."reposts" >= 0)
);
--> statement-breakpoint
ALTER TABLE "post_daily_stats" ADD CONSTRAINT "post_daily_stats_post_id_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."posts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "post_daily_stats_author_day_idx" ON "post_daily_stats" USING btree ("author_id","day");
--> statement-breakpoint
-- Recomputes post_daily_stats from the rows the app keeps (UTC days): likes and reposts on the day they were made,
-- public replies on the day they were written, and each post's view_count on the day it was published (views were
-- not recorded per day before this table). The app keeps the table exact from then on; the seed calls this after a
-- bulk load, which writes likes, reposts and replies without the app.
CREATE FUNCTION rebuild_post_daily_stats() RETURNS void LANGUAGE sql SET search_path FROM CURRENT AS $$
  TRUNCATE post_daily_stats;
  INSERT INTO post_daily_stats (post_id, author_id, day, views, likes, replies, reposts)
  SELECT post_id, author_id, day, sum(views)::int, sum(likes)::int, sum(replies)::int, sum(reposts)::int
  FROM (
    SELECT p.id AS post_id, p.author_id, (p.created_at AT TIME ZONE 'UTC')::date AS day,
           p.view_count AS views, 0 AS likes, 0 AS replies, 0 AS reposts
      FROM posts p WHERE p.view_count > 0
    UNION ALL
    SELECT l.post_id, p.author_id, (l.created_at AT TIME ZONE 'UTC')::date, 0, 1, 0, 0
      FROM likes l JOIN posts p ON p.id = l.post_id
    UNION ALL
    SELECT r.post_id, p.author_id, (r.created_at AT TIME ZONE 'UTC')::date, 0, 0, 0, 1
      FROM reposts r JOIN posts p ON p.id = r.post_id
    UNION ALL
    SELECT c.reply_to, c.reply_to_author_id, (c.created_at AT TIME ZONE 'UTC')::date, 0, 0, 1, 0
      FROM posts c WHERE c.reply_to IS NOT NULL AND c.visibility = 'public'
  ) s
  GROUP BY post_id, author_id, day;
$$;
--> statement-breakpoint
SELECT rebuild_post_daily_stats();
