DROP INDEX "rounds_candidate_a_idx";--> statement-breakpoint
DROP INDEX "rounds_candidate_b_idx";--> statement-breakpoint
CREATE INDEX "rounds_candidate_a_voter_idx" ON "rounds" USING btree ("candidate_a_id","voter_id");--> statement-breakpoint
CREATE INDEX "rounds_candidate_b_voter_idx" ON "rounds" USING btree ("candidate_b_id","voter_id");--> statement-breakpoint
-- Blocks now need the blocked student to have been shown to the blocker (a candidate in one of
-- their rounds, or a voter they unlocked). Rows written before that rule by naming any id are
-- removed: they could name someone the blocker never saw, and the block list no longer shows them.
DELETE FROM "blocks" b
WHERE NOT EXISTS (SELECT 1 FROM "rounds" r WHERE r."candidate_a_id" = b."blocked_id" AND r."voter_id" = b."blocker_id")
  AND NOT EXISTS (SELECT 1 FROM "rounds" r WHERE r."candidate_b_id" = b."blocked_id" AND r."voter_id" = b."blocker_id")
  AND NOT EXISTS (SELECT 1 FROM "unlocks" u WHERE u."owner_id" = b."blocker_id" AND u."voter_id" = b."blocked_id");
