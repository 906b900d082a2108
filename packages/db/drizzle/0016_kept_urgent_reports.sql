-- Open Under 18 reports about a student who deleted their own account, under a keyed digest of the phone:
-- a new account with that phone takes them back into the moderators' queue (decision 0010).
CREATE TABLE "kept_urgent_reports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"phone_digest" text NOT NULL,
	"reporter_id" uuid,
	"reason" "report_reason" NOT NULL,
	"note" text,
	"reported_at" timestamp with time zone NOT NULL,
	"kept_at" timestamp with time zone NOT NULL,
	CONSTRAINT "kept_urgent_reports_urgent" CHECK ("kept_urgent_reports"."reason" = 'under_18')
);
--> statement-breakpoint
ALTER TABLE "kept_urgent_reports" ADD CONSTRAINT "kept_urgent_reports_reporter_id_users_id_fk" FOREIGN KEY ("reporter_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "kept_urgent_reports_phone_digest_idx" ON "kept_urgent_reports" USING btree ("phone_digest");