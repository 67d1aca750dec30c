-- Durable background work (server/jobs/queue.ts): mail, account deletion, exports. A job is claimed with
-- FOR UPDATE SKIP LOCKED and leased until locked_until, so across processes each due job runs in one of them; a
-- process that dies mid-job loses its lease and the job runs again elsewhere (handlers are written to be rerun).
-- Done jobs are deleted; a job that failed max_attempts times keeps its row with failed_at for the operator.
-- `key`, when set, allows one unfinished job per key (one export per member at a time).
CREATE TABLE "jobs" (
	"id" uuid PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"payload" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"key" text,
	"run_at" timestamp with time zone DEFAULT now() NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"max_attempts" integer DEFAULT 8 NOT NULL,
	"locked_until" timestamp with time zone,
	"failed_at" timestamp with time zone,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "jobs_key_key" UNIQUE("key")
);
--> statement-breakpoint
CREATE INDEX "jobs_due_idx" ON "jobs" USING btree ("run_at") WHERE "failed_at" IS NULL;
