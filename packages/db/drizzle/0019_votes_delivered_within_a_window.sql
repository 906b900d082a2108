-- Each vote reaches its recipient at a moment drawn within the delivery window after it was cast. An expand
-- step: votes cast before this migration were delivered already and keep their cast time as their delivery
-- time; the default serves only the previous release's inserts while it still runs (it shows votes as cast
-- anyway). The previous release's inbox index stays until a contract migration; its notices' index is
-- replaced by one that leads with the same column, which serves it too.
ALTER TABLE "votes" ADD COLUMN "delivered_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
UPDATE "votes" SET "delivered_at" = "created_at";--> statement-breakpoint
CREATE INDEX "votes_recipient_delivery_idx" ON "votes" USING btree ("recipient_id",date_trunc('hour', (delivered_at at time zone 'UTC')),"id","delivered_at");--> statement-breakpoint
CREATE INDEX "votes_delivered_idx" ON "votes" USING btree ("delivered_at");--> statement-breakpoint
CREATE INDEX "votes_unnotified_delivery_idx" ON "votes" USING btree ("recipient_id","delivered_at") WHERE "votes"."notified_at" is null;--> statement-breakpoint
DROP INDEX "votes_unnotified_idx";
