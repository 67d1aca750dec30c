-- Explore (server/modules/posts/explore-queries.ts): public top-level posts newest first, read backwards from the
-- newest without walking replies and restricted posts.
CREATE INDEX "posts_public_created_idx" ON "posts" USING btree ("created_at","id") WHERE "posts"."visibility" = 'public' and "posts"."reply_to" is null;
