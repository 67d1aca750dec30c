-- Message key history and trust records (docs/security.md, "Safety numbers and key changes").
--
-- member_key_history: every public key a member has had, from when (since) and until when (until, null for the one
-- in use). A row trigger on users appends it in the transaction of every change of users.public_key, however the
-- key is stored (registration with keys, PUT /auth/keys, a member marked by admin migrate-keys making a new pair,
-- the admin CLI, SQL by hand), so the history cannot miss a change made through the app. The ids are random (the
-- trigger runs in SQL, which has no UUIDv7 on PostgreSQL 15); pages are ordered by since, the id only breaks ties.
-- Current keys are backfilled from the account's creation time: when a key was made before this table existed is
-- not known, and most keys were made at registration.
CREATE TABLE "member_key_history" (
	"id" uuid PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"public_key" text NOT NULL,
	"since" timestamp with time zone DEFAULT now() NOT NULL,
	"until" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "member_key_history" ADD CONSTRAINT "member_key_history_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "member_key_history_user_since_idx" ON "member_key_history" USING btree ("user_id","since","id");
--> statement-breakpoint
INSERT INTO "member_key_history" ("id", "user_id", "public_key", "since")
	SELECT gen_random_uuid(), "id", "public_key", "created_at" FROM "users" WHERE "public_key" IS NOT NULL;
--> statement-breakpoint
CREATE FUNCTION member_key_history_append() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND NEW.public_key IS NOT DISTINCT FROM OLD.public_key THEN
    RETURN NULL;
  END IF;
  UPDATE member_key_history SET until = now() WHERE user_id = NEW.id AND until IS NULL;
  IF NEW.public_key IS NOT NULL THEN
    INSERT INTO member_key_history (id, user_id, public_key, since) VALUES (gen_random_uuid(), NEW.id, NEW.public_key, now());
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "users_key_history" AFTER INSERT OR UPDATE OF "public_key" ON "users"
	FOR EACH ROW EXECUTE FUNCTION member_key_history_append();
--> statement-breakpoint
-- trust_records: what a member's browsers decided about a contact's key (accepted, verified, when), sealed in the
-- browser under a key only the member's browsers can derive. The server stores the text opaquely: it checks shape
-- and size (the contract's TrustRecord pattern) and cannot read or forge it. One per (owner, contact).
CREATE TABLE "trust_records" (
	"owner_id" uuid NOT NULL,
	"contact_id" uuid NOT NULL,
	"record" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "trust_records_owner_id_contact_id_pk" PRIMARY KEY("owner_id","contact_id"),
	CONSTRAINT "trust_records_not_self_check" CHECK ("trust_records"."owner_id" <> "trust_records"."contact_id"),
	CONSTRAINT "trust_records_record_length_check" CHECK (char_length("trust_records"."record") <= 512)
);
--> statement-breakpoint
ALTER TABLE "trust_records" ADD CONSTRAINT "trust_records_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "trust_records" ADD CONSTRAINT "trust_records_contact_id_users_id_fk" FOREIGN KEY ("contact_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;
