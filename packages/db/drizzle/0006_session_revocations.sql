CREATE TABLE "session_revocations" (
	"family_id" uuid PRIMARY KEY NOT NULL,
	"revoked_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "session_revocations_revoked_idx" ON "session_revocations" USING btree ("revoked_at");