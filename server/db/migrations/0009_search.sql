-- Search: posts' text as English stems (a generated tsvector with a GIN index) for GET /posts/search; trigram
-- indexes on members' lower-cased usernames and display names for GET /users/search; and every hashtag with its
-- exact post count for the Hashtags tab, kept by triggers on post_hashtags in the transaction that adds or removes
-- the post (cascaded deletes included). Adding the generated column rewrites the posts table once.
CREATE TABLE "hashtags" (
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"tag" text PRIMARY KEY NOT NULL,
	"post_count" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "hashtags_post_count_check" CHECK ("hashtags"."post_count" >= 0)
);
--> statement-breakpoint
ALTER TABLE "posts" ADD COLUMN "search_vector" "tsvector" GENERATED ALWAYS AS (to_tsvector('english'::regconfig, content)) STORED;--> statement-breakpoint
CREATE UNIQUE INDEX "hashtags_id_key" ON "hashtags" USING btree ("id");--> statement-breakpoint
CREATE INDEX "hashtags_tag_pattern_idx" ON "hashtags" USING btree ("tag" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "users_username_trgm_idx" ON "users" USING gin (lower("username") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "users_display_name_trgm_idx" ON "users" USING gin (lower("display_name") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "posts_search_vector_idx" ON "posts" USING gin ("search_vector");--> statement-breakpoint
CREATE FUNCTION hashtags_count_use() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
  INSERT INTO hashtags (tag, post_count) VALUES (NEW.tag, 1)
    ON CONFLICT (tag) DO UPDATE SET post_count = hashtags.post_count + 1;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION hashtags_count_unuse() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
  UPDATE hashtags SET post_count = post_count - 1 WHERE tag = OLD.tag;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER post_hashtags_count_insert AFTER INSERT ON post_hashtags FOR EACH ROW EXECUTE FUNCTION hashtags_count_use();
--> statement-breakpoint
CREATE TRIGGER post_hashtags_count_delete AFTER DELETE ON post_hashtags FOR EACH ROW EXECUTE FUNCTION hashtags_count_unuse();
--> statement-breakpoint
INSERT INTO hashtags (tag, post_count) SELECT tag, count(*)::int FROM post_hashtags GROUP BY tag;
