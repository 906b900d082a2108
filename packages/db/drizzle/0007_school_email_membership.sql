CREATE TABLE "school_email_domains" (
	"domain" text PRIMARY KEY NOT NULL,
	"school_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "school_email_domains_school_domain" UNIQUE("school_id","domain"),
	CONSTRAINT "school_email_domains_format" CHECK ("school_email_domains"."domain" ~ '^[a-z0-9-]+([.][a-z0-9-]+)+$')
);
--> statement-breakpoint
CREATE TABLE "email_outbox" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid,
	"to_address" text NOT NULL,
	"subject" text NOT NULL,
	"body" text NOT NULL,
	"status" text DEFAULT 'sending' NOT NULL,
	"provider_message_id" text,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone,
	CONSTRAINT "email_outbox_status" CHECK ("email_outbox"."status" in ('sending', 'sent', 'failed'))
);
--> statement-breakpoint
CREATE TABLE "school_email_codes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"address" text NOT NULL,
	"code_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"consumed_at" timestamp with time zone,
	CONSTRAINT "school_email_codes_attempts_nonnegative" CHECK ("school_email_codes"."attempts" >= 0)
);
--> statement-breakpoint
DROP INDEX "users_candidates_idx";--> statement-breakpoint
DROP INDEX "users_preview_idx";--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "school_email" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "school_email_domain" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "school_verified_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "school_email_domains" ADD CONSTRAINT "school_email_domains_school_id_schools_id_fk" FOREIGN KEY ("school_id") REFERENCES "public"."schools"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "email_outbox" ADD CONSTRAINT "email_outbox_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "school_email_codes" ADD CONSTRAINT "school_email_codes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "email_outbox_to_created_idx" ON "email_outbox" USING btree ("to_address","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "email_outbox_user_idx" ON "email_outbox" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "email_outbox_created_idx" ON "email_outbox" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "school_email_codes_user_created_idx" ON "school_email_codes" USING btree ("user_id","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "school_email_codes_address_created_idx" ON "school_email_codes" USING btree ("address","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "school_email_codes_created_idx" ON "school_email_codes" USING btree ("created_at");--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_school_email_domain_fk" FOREIGN KEY ("school_id","school_email_domain") REFERENCES "public"."school_email_domains"("school_id","domain") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "users_candidates_idx" ON "users" USING btree ("school_id","gender","id","boost_ends_at") WHERE "users"."is_verified" and "users"."school_verified_at" is not null and "users"."paused_at" is null;--> statement-breakpoint
CREATE INDEX "users_preview_idx" ON "users" USING btree ("gender","school_id","id") WHERE "users"."show_in_preview" and "users"."is_verified" and "users"."school_verified_at" is not null and "users"."paused_at" is null;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_school_email_unique" UNIQUE("school_email");--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_school_proof_whole" CHECK (("users"."school_verified_at" is null) = ("users"."school_email_domain" is null));--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_school_email_proved" CHECK ("users"."school_email" is null or "users"."school_verified_at" is not null);--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_school_email_lower" CHECK ("users"."school_email" = lower("users"."school_email"));--> statement-breakpoint
-- Each school's main domain proves membership (the seed adds further real ones).
INSERT INTO "school_email_domains" ("domain", "school_id")
SELECT DISTINCT ON (lower("domain")) lower("domain"), "id" FROM "schools"
WHERE lower("domain") ~ '^[a-z0-9-]+([.][a-z0-9-]+)+$'
ORDER BY lower("domain"), "id"
ON CONFLICT DO NOTHING;--> statement-breakpoint
-- Demo and load-test students (fictional +1 555 phones, which cannot sign in) count as
-- members, without an address; everyone else proves a school address on their next visit.
UPDATE "users" u SET "school_email_domain" = d."domain", "school_verified_at" = now()
FROM "schools" s, "school_email_domains" d
WHERE s."id" = u."school_id" AND d."school_id" = s."id" AND d."domain" = lower(s."domain")
  AND u."phone" LIKE '+1555%';
