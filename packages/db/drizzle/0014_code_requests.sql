-- Sign-in codes are bound to the request that asked for them (decision 0013). Codes live ten
-- minutes and a code stored before this change has no request to present: they go.
DELETE FROM "auth_codes";--> statement-breakpoint
ALTER TABLE "auth_codes" ADD COLUMN "request_hash" text NOT NULL;--> statement-breakpoint
ALTER TABLE "auth_codes" ADD COLUMN "requester_hash" text NOT NULL;--> statement-breakpoint
ALTER TABLE "auth_codes" ADD COLUMN "last_failed_at" timestamp with time zone;
