-- Hashtag search shows and orders by how many posts anyone may see use each tag: public posts of public accounts,
-- the rule `visibleToAnyone` of server/modules/posts/visibility.ts. Counted at search time, a short prefix read every
-- post of every matching tag; hashtags.public_post_count stores that count, exact, kept by triggers in the
-- transaction of every change it depends on:
-- - a tag added to or removed from a post (post_hashtags insert / delete);
-- - a post deleted: posts' BEFORE DELETE row trigger takes the post off its tags while the post and its author can
--   still be read; the post_hashtags rows that then go by cascade find no post and leave public_post_count alone;
-- - a post's visibility (or author) changed;
-- - an account turned private or public: each tag moves by how many of the member's public posts use it, which reads
--   the member's posts only, never all the posts of a tag;
-- - a member deleted: counted as if the account turned private first; their posts then go by cascade, find no
--   author and change nothing more.
-- Whatever reads an author's private_account for the count locks the author's users row first (FOR NO KEY UPDATE,
-- the lock a new post takes anyway for posts_count), so a post written while its author turns private or public is
-- counted by exactly one of the two transactions: whichever runs second sees the other's result. Users rows are
-- always locked before hashtags rows: the other order deadlocks a post against its author's privacy change.
ALTER TABLE "hashtags" ADD COLUMN "public_post_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "hashtags" ADD CONSTRAINT "hashtags_public_post_count_check" CHECK ("hashtags"."public_post_count" >= 0);
--> statement-breakpoint
CREATE FUNCTION hashtags_post_public(post uuid) RETURNS boolean LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
DECLARE
  visible boolean;
BEGIN
  SELECT p.visibility = 'public' AND NOT u.private_account INTO visible
    FROM posts p JOIN users u ON u.id = p.author_id
    WHERE p.id = post
    FOR NO KEY UPDATE OF u;
  RETURN coalesce(visible, false);
END
$$;
--> statement-breakpoint
CREATE FUNCTION hashtags_member_public(member uuid) RETURNS boolean LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
DECLARE
  visible boolean;
BEGIN
  SELECT NOT private_account INTO visible FROM users WHERE id = member FOR NO KEY UPDATE;
  RETURN coalesce(visible, false);
END
$$;
--> statement-breakpoint
CREATE FUNCTION hashtags_move_member(member uuid, sign integer) RETURNS void LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
  UPDATE hashtags h SET public_post_count = h.public_post_count + sign * c.n
    FROM (SELECT ph.tag, count(*)::int AS n FROM posts p JOIN post_hashtags ph ON ph.post_id = p.id
          WHERE p.author_id = member AND p.visibility = 'public' GROUP BY ph.tag) c
    WHERE h.tag = c.tag;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION hashtags_count_use() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
DECLARE
  visible integer := CASE WHEN hashtags_post_public(NEW.post_id) THEN 1 ELSE 0 END;
BEGIN
  INSERT INTO hashtags (tag, post_count, public_post_count) VALUES (NEW.tag, 1, visible)
    ON CONFLICT (tag) DO UPDATE
      SET post_count = hashtags.post_count + 1, public_post_count = hashtags.public_post_count + excluded.public_post_count;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION hashtags_count_unuse() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
DECLARE
  visible integer := CASE WHEN hashtags_post_public(OLD.post_id) THEN 1 ELSE 0 END;
BEGIN
  UPDATE hashtags SET post_count = post_count - 1, public_post_count = public_post_count - visible WHERE tag = OLD.tag;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION hashtags_count_post_deleted() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
  IF hashtags_post_public(OLD.id) THEN
    UPDATE hashtags h SET public_post_count = h.public_post_count - 1
      FROM post_hashtags ph WHERE ph.post_id = OLD.id AND h.tag = ph.tag;
  END IF;
  RETURN OLD;
END
$$;
--> statement-breakpoint
CREATE FUNCTION hashtags_count_post_changed() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
DECLARE
  visible_before integer := CASE WHEN OLD.visibility = 'public' AND hashtags_member_public(OLD.author_id) THEN 1 ELSE 0 END;
  visible_after integer := CASE WHEN NEW.visibility = 'public' AND hashtags_member_public(NEW.author_id) THEN 1 ELSE 0 END;
BEGIN
  IF visible_before <> visible_after THEN
    UPDATE hashtags h SET public_post_count = h.public_post_count + visible_after - visible_before
      FROM post_hashtags ph WHERE ph.post_id = NEW.id AND h.tag = ph.tag;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION hashtags_count_member_privacy() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
  PERFORM hashtags_move_member(NEW.id, CASE WHEN NEW.private_account THEN -1 ELSE 1 END);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION hashtags_count_member_deleted() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
  IF NOT OLD.private_account THEN
    PERFORM hashtags_move_member(OLD.id, -1);
  END IF;
  RETURN OLD;
END
$$;
--> statement-breakpoint
CREATE TRIGGER posts_hashtags_deleted BEFORE DELETE ON posts FOR EACH ROW EXECUTE FUNCTION hashtags_count_post_deleted();
--> statement-breakpoint
CREATE TRIGGER posts_hashtags_changed AFTER UPDATE OF visibility, author_id ON posts FOR EACH ROW
  WHEN (OLD.visibility IS DISTINCT FROM NEW.visibility OR OLD.author_id IS DISTINCT FROM NEW.author_id)
  EXECUTE FUNCTION hashtags_count_post_changed();
--> statement-breakpoint
CREATE TRIGGER users_hashtags_privacy AFTER UPDATE OF private_account ON users FOR EACH ROW
  WHEN (OLD.private_account IS DISTINCT FROM NEW.private_account)
  EXECUTE FUNCTION hashtags_count_member_privacy();
--> statement-breakpoint
CREATE TRIGGER users_hashtags_deleted BEFORE DELETE ON users FOR EACH ROW EXECUTE FUNCTION hashtags_count_member_deleted();
--> statement-breakpoint
UPDATE hashtags h SET public_post_count = c.n
  FROM (SELECT ph.tag, count(*)::int AS n FROM post_hashtags ph
        JOIN posts p ON p.id = ph.post_id JOIN users u ON u.id = p.author_id
        WHERE p.visibility = 'public' AND NOT u.private_account GROUP BY ph.tag) c
  WHERE h.tag = c.tag;
