ALTER TYPE "public"."sms_status" ADD VALUE 'sending' BEFORE 'sent';--> statement-breakpoint
ALTER TYPE "public"."sms_status" ADD VALUE 'delivered' BEFORE 'failed';--> statement-breakpoint
CREATE TABLE "job_runs" (
	"name" text PRIMARY KEY NOT NULL,
	"next_run_at" timestamp with time zone NOT NULL,
	"lease_until" timestamp with time zone,
	"last_started_at" timestamp with time zone,
	"last_finished_at" timestamp with time zone,
	"last_run_by" text,
	"last_error" text
);
--> statement-breakpoint
ALTER TABLE "consents" ADD COLUMN "seq" bigint NOT NULL GENERATED ALWAYS AS IDENTITY (sequence name "consents_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1);--> statement-breakpoint
ALTER TABLE "sms_outbox" ADD COLUMN "claimed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "sms_outbox" ADD COLUMN "next_attempt_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "auth_sessions_revoked_idx" ON "auth_sessions" USING btree ("revoked_at") WHERE "auth_sessions"."revoked_at" is not null;--> statement-breakpoint
CREATE INDEX "sms_outbox_provider_message_idx" ON "sms_outbox" USING btree ("provider_message_id") WHERE "sms_outbox"."provider_message_id" is not null;--> statement-breakpoint
CREATE INDEX "sms_outbox_created_idx" ON "sms_outbox" USING btree ("created_at");