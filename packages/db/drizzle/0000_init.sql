CREATE TYPE "public"."consent_kind" AS ENUM('sms', 'terms');--> statement-breakpoint
CREATE TYPE "public"."gender" AS ENUM('male', 'female');--> statement-breakpoint
CREATE TYPE "public"."payment_provider" AS ENUM('local', 'stripe');--> statement-breakpoint
CREATE TYPE "public"."purchase_kind" AS ENUM('unlock', 'boost');--> statement-breakpoint
CREATE TYPE "public"."purchase_status" AS ENUM('pending', 'succeeded', 'failed');--> statement-breakpoint
CREATE TYPE "public"."report_reason" AS ENUM('fake_profile', 'under_18', 'not_a_student', 'inappropriate_photo', 'harassment', 'other');--> statement-breakpoint
CREATE TYPE "public"."round_status" AS ENUM('open', 'voted', 'skipped', 'closed');--> statement-breakpoint
CREATE TYPE "public"."sms_kind" AS ENUM('code', 'notification', 'system');--> statement-breakpoint
CREATE TYPE "public"."sms_status" AS ENUM('queued', 'sent', 'failed');--> statement-breakpoint
CREATE TYPE "public"."user_role" AS ENUM('student', 'admin');--> statement-breakpoint
CREATE TABLE "schools" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"short_name" text NOT NULL,
	"domain" text NOT NULL,
	"city" text NOT NULL,
	"state" text NOT NULL,
	"time_zone" text NOT NULL,
	"icon" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "schools_name_unique" UNIQUE("name"),
	CONSTRAINT "schools_state_code" CHECK ("schools"."state" ~ '^[A-Z]{2}$')
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"phone" text NOT NULL,
	"first_name" text,
	"school_id" integer,
	"graduation_year" smallint,
	"gender" "gender",
	"instagram_handle" text,
	"photo_key" text,
	"teaser_key" text,
	"organizations" text[] DEFAULT '{}'::text[] NOT NULL,
	"interests" text[] DEFAULT '{}'::text[] NOT NULL,
	"emojis" text[] DEFAULT '{}'::text[] NOT NULL,
	"preference" "gender",
	"is_verified" boolean DEFAULT false NOT NULL,
	"remaining_unlocks" integer DEFAULT 0 NOT NULL,
	"boost_ends_at" timestamp with time zone,
	"paused_at" timestamp with time zone,
	"show_in_preview" boolean DEFAULT false NOT NULL,
	"role" "user_role" DEFAULT 'student' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "users_phone_unique" UNIQUE("phone"),
	CONSTRAINT "users_phone_e164_us" CHECK ("users"."phone" ~ '^[+]1[0-9]{10}$'),
	CONSTRAINT "users_graduation_year_range" CHECK ("users"."graduation_year" between 2025 and 2029),
	CONSTRAINT "users_remaining_unlocks_nonnegative" CHECK ("users"."remaining_unlocks" >= 0),
	CONSTRAINT "users_verified_profile_complete" CHECK (not "users"."is_verified" or ("users"."first_name" is not null and "users"."school_id" is not null and "users"."graduation_year" is not null and "users"."gender" is not null and "users"."instagram_handle" is not null and "users"."photo_key" is not null))
);
--> statement-breakpoint
CREATE TABLE "prompts" (
	"id" serial PRIMARY KEY NOT NULL,
	"text" text NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "prompts_text_unique" UNIQUE("text")
);
--> statement-breakpoint
CREATE TABLE "rounds" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"voter_id" uuid NOT NULL,
	"prompt_id" integer NOT NULL,
	"candidate_a_id" uuid NOT NULL,
	"candidate_b_id" uuid NOT NULL,
	"status" "round_status" DEFAULT 'open' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"closed_at" timestamp with time zone,
	CONSTRAINT "rounds_distinct_candidates" CHECK ("rounds"."candidate_a_id" <> "rounds"."candidate_b_id"),
	CONSTRAINT "rounds_voter_not_candidate" CHECK ("rounds"."voter_id" <> "rounds"."candidate_a_id" and "rounds"."voter_id" <> "rounds"."candidate_b_id"),
	CONSTRAINT "rounds_closed_at_matches_status" CHECK (("rounds"."status" = 'open') = ("rounds"."closed_at" is null))
);
--> statement-breakpoint
CREATE TABLE "voter_state" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"votes_in_batch" integer DEFAULT 0 NOT NULL,
	"cooldown_until" timestamp with time zone,
	"skips_in_row" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "voter_state_votes_in_batch_range" CHECK ("voter_state"."votes_in_batch" between 0 and 12),
	CONSTRAINT "voter_state_skips_in_row_range" CHECK ("voter_state"."skips_in_row" between 0 and 3)
);
--> statement-breakpoint
CREATE TABLE "votes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"round_id" uuid,
	"voter_id" uuid,
	"recipient_id" uuid NOT NULL,
	"prompt_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"notified_at" timestamp with time zone,
	CONSTRAINT "votes_round_id_unique" UNIQUE("round_id"),
	CONSTRAINT "votes_not_for_self" CHECK ("votes"."voter_id" is null or "votes"."voter_id" <> "votes"."recipient_id")
);
--> statement-breakpoint
CREATE TABLE "unlocks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"owner_id" uuid NOT NULL,
	"voter_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "unlocks_owner_voter_unique" UNIQUE("owner_id","voter_id"),
	CONSTRAINT "unlocks_not_self" CHECK ("unlocks"."owner_id" <> "unlocks"."voter_id")
);
--> statement-breakpoint
CREATE TABLE "payment_fulfilments" (
	"provider_payment_id" text PRIMARY KEY NOT NULL,
	"purchase_id" uuid NOT NULL,
	"fulfilled_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payment_fulfilments_purchase_id_unique" UNIQUE("purchase_id")
);
--> statement-breakpoint
CREATE TABLE "purchases" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid,
	"product_id" text NOT NULL,
	"kind" "purchase_kind" NOT NULL,
	"amount_cents" integer NOT NULL,
	"currency" text DEFAULT 'usd' NOT NULL,
	"provider" "payment_provider" NOT NULL,
	"provider_payment_id" text NOT NULL,
	"client_secret" text,
	"status" "purchase_status" DEFAULT 'pending' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"fulfilled_at" timestamp with time zone,
	CONSTRAINT "purchases_provider_payment_id_unique" UNIQUE("provider_payment_id"),
	CONSTRAINT "purchases_amount_positive" CHECK ("purchases"."amount_cents" > 0)
);
--> statement-breakpoint
CREATE TABLE "auth_codes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"phone" text NOT NULL,
	"code_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"consumed_at" timestamp with time zone,
	CONSTRAINT "auth_codes_attempts_nonnegative" CHECK ("auth_codes"."attempts" >= 0)
);
--> statement-breakpoint
CREATE TABLE "auth_sessions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"phone" text NOT NULL,
	"family_id" uuid NOT NULL,
	"token_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone,
	"replaced_by" uuid,
	CONSTRAINT "auth_sessions_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "consents" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"phone" text NOT NULL,
	"user_id" uuid,
	"kind" "consent_kind" NOT NULL,
	"granted" boolean NOT NULL,
	"text_version" text NOT NULL,
	"source" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sms_outbox" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"to_phone" text NOT NULL,
	"body" text NOT NULL,
	"kind" "sms_kind" NOT NULL,
	"status" "sms_status" DEFAULT 'queued' NOT NULL,
	"provider_message_id" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone,
	CONSTRAINT "sms_outbox_attempts_nonnegative" CHECK ("sms_outbox"."attempts" >= 0)
);
--> statement-breakpoint
CREATE TABLE "blocks" (
	"blocker_id" uuid NOT NULL,
	"blocked_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "blocks_pkey" PRIMARY KEY("blocker_id","blocked_id"),
	CONSTRAINT "blocks_not_self" CHECK ("blocks"."blocker_id" <> "blocks"."blocked_id")
);
--> statement-breakpoint
CREATE TABLE "reports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"reporter_id" uuid NOT NULL,
	"reported_id" uuid NOT NULL,
	"reason" "report_reason" NOT NULL,
	"note" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"resolved_at" timestamp with time zone,
	CONSTRAINT "reports_reporter_reported_unique" UNIQUE("reporter_id","reported_id"),
	CONSTRAINT "reports_not_self" CHECK ("reports"."reporter_id" <> "reports"."reported_id")
);
--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_school_id_schools_id_fk" FOREIGN KEY ("school_id") REFERENCES "public"."schools"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rounds" ADD CONSTRAINT "rounds_voter_id_users_id_fk" FOREIGN KEY ("voter_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rounds" ADD CONSTRAINT "rounds_prompt_id_prompts_id_fk" FOREIGN KEY ("prompt_id") REFERENCES "public"."prompts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rounds" ADD CONSTRAINT "rounds_candidate_a_id_users_id_fk" FOREIGN KEY ("candidate_a_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rounds" ADD CONSTRAINT "rounds_candidate_b_id_users_id_fk" FOREIGN KEY ("candidate_b_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "voter_state" ADD CONSTRAINT "voter_state_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "votes" ADD CONSTRAINT "votes_round_id_rounds_id_fk" FOREIGN KEY ("round_id") REFERENCES "public"."rounds"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "votes" ADD CONSTRAINT "votes_voter_id_users_id_fk" FOREIGN KEY ("voter_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "votes" ADD CONSTRAINT "votes_recipient_id_users_id_fk" FOREIGN KEY ("recipient_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "votes" ADD CONSTRAINT "votes_prompt_id_prompts_id_fk" FOREIGN KEY ("prompt_id") REFERENCES "public"."prompts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "unlocks" ADD CONSTRAINT "unlocks_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "unlocks" ADD CONSTRAINT "unlocks_voter_id_users_id_fk" FOREIGN KEY ("voter_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_fulfilments" ADD CONSTRAINT "payment_fulfilments_purchase_id_purchases_id_fk" FOREIGN KEY ("purchase_id") REFERENCES "public"."purchases"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "purchases" ADD CONSTRAINT "purchases_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consents" ADD CONSTRAINT "consents_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "blocks" ADD CONSTRAINT "blocks_blocker_id_users_id_fk" FOREIGN KEY ("blocker_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "blocks" ADD CONSTRAINT "blocks_blocked_id_users_id_fk" FOREIGN KEY ("blocked_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_reporter_id_users_id_fk" FOREIGN KEY ("reporter_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_reported_id_users_id_fk" FOREIGN KEY ("reported_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "users_candidates_idx" ON "users" USING btree ("school_id","gender","id","boost_ends_at") WHERE "users"."is_verified" and "users"."paused_at" is null;--> statement-breakpoint
CREATE INDEX "users_preview_idx" ON "users" USING btree ("gender","school_id","id") WHERE "users"."show_in_preview" and "users"."is_verified" and "users"."paused_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "rounds_one_open_per_voter" ON "rounds" USING btree ("voter_id") WHERE "rounds"."status" = 'open';--> statement-breakpoint
CREATE INDEX "rounds_voter_created_idx" ON "rounds" USING btree ("voter_id","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "rounds_candidate_a_idx" ON "rounds" USING btree ("candidate_a_id");--> statement-breakpoint
CREATE INDEX "rounds_candidate_b_idx" ON "rounds" USING btree ("candidate_b_id");--> statement-breakpoint
CREATE INDEX "votes_recipient_created_idx" ON "votes" USING btree ("recipient_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "votes_voter_recipient_idx" ON "votes" USING btree ("voter_id","recipient_id");--> statement-breakpoint
CREATE INDEX "votes_unnotified_idx" ON "votes" USING btree ("recipient_id") WHERE "votes"."notified_at" is null;--> statement-breakpoint
CREATE INDEX "unlocks_voter_idx" ON "unlocks" USING btree ("voter_id");--> statement-breakpoint
CREATE INDEX "purchases_user_created_idx" ON "purchases" USING btree ("user_id","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE UNIQUE INDEX "purchases_client_secret_idx" ON "purchases" USING btree ("client_secret");--> statement-breakpoint
CREATE INDEX "auth_codes_phone_created_idx" ON "auth_codes" USING btree ("phone","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "auth_codes_expires_idx" ON "auth_codes" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "auth_sessions_family_idx" ON "auth_sessions" USING btree ("family_id");--> statement-breakpoint
CREATE INDEX "auth_sessions_phone_idx" ON "auth_sessions" USING btree ("phone");--> statement-breakpoint
CREATE INDEX "auth_sessions_expires_idx" ON "auth_sessions" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "consents_phone_kind_created_idx" ON "consents" USING btree ("phone","kind","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "consents_user_idx" ON "consents" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "sms_outbox_to_phone_created_idx" ON "sms_outbox" USING btree ("to_phone","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "sms_outbox_status_created_idx" ON "sms_outbox" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "blocks_blocked_idx" ON "blocks" USING btree ("blocked_id");--> statement-breakpoint
CREATE INDEX "reports_reported_idx" ON "reports" USING btree ("reported_id");