-- Received votes are paged by the UTC hour they were cast in, then by id: a locked card shows only its
-- hour, and an order by the exact time inside an hour would tell what the card hides. created_at rides
-- along so the page's keys still come from the index alone. The previous version's inbox query still runs
-- on this index (its recipient prefix, then a sort of that recipient's votes), so it can serve a rollback.
CREATE INDEX "votes_recipient_hour_idx" ON "votes" USING btree ("recipient_id",date_trunc('hour', (created_at at time zone 'UTC')),"id","created_at");--> statement-breakpoint
DROP INDEX "votes_recipient_created_idx";
