-- Lists (docs/product.md, "Lists"): members' lists, who is on them and who subscribes to them. member_count and
-- subscriber_count are kept exact by row triggers on list_members and list_subscriptions, in the transaction that adds
-- or removes the row (cascaded deletes included): the UPDATE takes the list's row lock, so concurrent adds serialise.
CREATE TABLE "list_members" (
	"list_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "list_members_pkey" PRIMARY KEY("list_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "list_subscriptions" (
	"list_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "list_subscriptions_pkey" PRIMARY KEY("list_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "lists" (
	"id" uuid PRIMARY KEY NOT NULL,
	"owner_id" uuid NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"is_private" boolean DEFAULT false NOT NULL,
	"member_count" integer DEFAULT 0 NOT NULL,
	"subscriber_count" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "lists_name_check" CHECK (char_length("lists"."name") between 1 and 50),
	CONSTRAINT "lists_description_check" CHECK (char_length("lists"."description") <= 200),
	CONSTRAINT "lists_counters_check" CHECK ("lists"."member_count" >= 0 and "lists"."subscriber_count" >= 0)
);
--> statement-breakpoint
ALTER TABLE "list_members" ADD CONSTRAINT "list_members_list_id_lists_id_fk" FOREIGN KEY ("list_id") REFERENCES "public"."lists"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "list_members" ADD CONSTRAINT "list_members_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "list_subscriptions" ADD CONSTRAINT "list_subscriptions_list_id_lists_id_fk" FOREIGN KEY ("list_id") REFERENCES "public"."lists"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "list_subscriptions" ADD CONSTRAINT "list_subscriptions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lists" ADD CONSTRAINT "lists_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "list_members_list_created_idx" ON "list_members" USING btree ("list_id","created_at","user_id");--> statement-breakpoint
CREATE INDEX "list_members_user_idx" ON "list_members" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "list_subscriptions_user_created_idx" ON "list_subscriptions" USING btree ("user_id","created_at","list_id");--> statement-breakpoint
CREATE INDEX "lists_owner_created_idx" ON "lists" USING btree ("owner_id","created_at","id");--> statement-breakpoint
CREATE FUNCTION lists_count_member() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    UPDATE lists SET member_count = member_count + 1 WHERE id = NEW.list_id;
  ELSE
    UPDATE lists SET member_count = member_count - 1 WHERE id = OLD.list_id;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION lists_count_subscriber() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    UPDATE lists SET subscriber_count = subscriber_count + 1 WHERE id = NEW.list_id;
  ELSE
    UPDATE lists SET subscriber_count = subscriber_count - 1 WHERE id = OLD.list_id;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER list_members_count AFTER INSERT OR DELETE ON list_members FOR EACH ROW EXECUTE FUNCTION lists_count_member();
--> statement-breakpoint
CREATE TRIGGER list_subscriptions_count AFTER INSERT OR DELETE ON list_subscriptions FOR EACH ROW EXECUTE FUNCTION lists_count_subscriber();
