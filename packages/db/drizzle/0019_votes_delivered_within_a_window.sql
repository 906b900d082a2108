-- Each vote reaches its recipient at a moment drawn within the delivery window after it was cast. Votes
-- cast before this migration were delivered already: they keep their cast time as their delivery time.
DROP INDEX "votes_recipient_hour_idx";--> statement-breakpoint
DROP INDEX "votes_unnotified_idx";--> statement-breakpoint
ALTER TABLE "votes" ADD COLUMN "delivered_at" timestamp with time zone;--> statement-breakpoint
UPDATE "votes" SET "delivered_at" = "created_at";--> statement-breakpoint
ALTER TABLE "votes" ALTER COLUMN "delivered_at" SET NOT NULL;--> statement-breakpoint
CREATE INDEX "votes_recipient_delivery_idx" ON "votes" USING btree ("recipient_id",date_trunc('hour', (delivered_at at time zone 'UTC')),"id","delivered_at");--> statement-breakpoint
CREATE INDEX "votes_delivered_idx" ON "votes" USING btree ("delivered_at");--> statement-breakpoint
CREATE INDEX "votes_unnotified_idx" ON "votes" USING btree ("recipient_id","delivered_at") WHERE "votes"."notified_at" is null;--> statement-breakpoint
ALTER TABLE "votes" ADD CONSTRAINT "votes_delivered_after_cast" CHECK ("votes"."delivered_at" >= "votes"."created_at");
