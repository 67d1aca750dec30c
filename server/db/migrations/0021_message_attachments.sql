-- Encrypted photos and videos of direct messages (docs/security.md, "Attachments"). A row is one opaque blob the
-- sender's browser encrypted and uploaded into a conversation; the file lives under DATA_DIR/attachments (never the
-- public media folder). message_id is null until a send or an edit names the blob, then the message it belongs to:
-- deleting the message deletes the rows and the files (the service, which also removes the files); blobs never named
-- are swept after 24 hours. A conversation or member deleted takes the rows with it by cascade.
CREATE TABLE "message_attachments" (
	"id" uuid PRIMARY KEY NOT NULL,
	"conversation_id" uuid NOT NULL,
	"uploader_id" uuid NOT NULL,
	"message_id" uuid,
	"storage_key" text NOT NULL,
	"size" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "message_attachments_storage_key_key" UNIQUE("storage_key"),
	CONSTRAINT "message_attachments_size_check" CHECK ("message_attachments"."size" > 0)
);
--> statement-breakpoint
ALTER TABLE "message_attachments" ADD CONSTRAINT "message_attachments_conversation_id_conversations_id_fk" FOREIGN KEY ("conversation_id") REFERENCES "public"."conversations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_attachments" ADD CONSTRAINT "message_attachments_uploader_id_users_id_fk" FOREIGN KEY ("uploader_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_attachments" ADD CONSTRAINT "message_attachments_message_id_messages_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."messages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "message_attachments_message_idx" ON "message_attachments" USING btree ("message_id") WHERE "message_attachments"."message_id" is not null;--> statement-breakpoint
CREATE INDEX "message_attachments_unsent_idx" ON "message_attachments" USING btree ("created_at") WHERE "message_attachments"."message_id" is null;
