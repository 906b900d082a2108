-- The open round moves onto the voter's voter_state row (decision 0020): opening a round and
-- voting in it become updates of that row that touch no indexed column, and one open round per
-- voter is the row itself. The row also keeps the recently shown prompts and candidates.
ALTER TABLE "voter_state" ADD COLUMN "round_prompt_id" integer;--> statement-breakpoint
ALTER TABLE "voter_state" ADD COLUMN "round_candidate_a_id" uuid;--> statement-breakpoint
ALTER TABLE "voter_state" ADD COLUMN "round_candidate_b_id" uuid;--> statement-breakpoint
ALTER TABLE "voter_state" ADD COLUMN "round_opened_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "voter_state" ADD COLUMN "round_open" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "voter_state" ADD COLUMN "recent_prompt_ids" integer[] DEFAULT '{}' NOT NULL;--> statement-breakpoint
ALTER TABLE "voter_state" ADD COLUMN "recent_candidate_ids" uuid[] DEFAULT '{}' NOT NULL;--> statement-breakpoint
-- Room on each page for the next version of its rows, so their updates stay HOT.
ALTER TABLE "voter_state" SET (fillfactor = 50);--> statement-breakpoint
-- Each voter's recent rounds (24 prompts, the candidates of 50 rounds, newest first) and open round, from rounds.
WITH "ranked" AS (
  SELECT "voter_id", "prompt_id", "candidate_a_id", "candidate_b_id",
         row_number() OVER (PARTITION BY "voter_id" ORDER BY "created_at" DESC, "id") AS "n"
  FROM "rounds"
), "recent_prompts" AS (
  SELECT "voter_id", array_agg("prompt_id" ORDER BY "n") FILTER (WHERE "n" <= 24) AS "ids"
  FROM "ranked"
  GROUP BY "voter_id"
), "recent_candidates" AS (
  SELECT r."voter_id", array_agg(c."id" ORDER BY r."n", c."k") AS "ids"
  FROM "ranked" r CROSS JOIN LATERAL (VALUES (1, r."candidate_a_id"), (2, r."candidate_b_id")) AS c("k", "id")
  WHERE r."n" <= 50
  GROUP BY r."voter_id"
), "history" AS (
  SELECT p."voter_id", coalesce(p."ids", '{}') AS "prompts", c."ids" AS "candidates"
  FROM "recent_prompts" p JOIN "recent_candidates" c ON c."voter_id" = p."voter_id"
)
INSERT INTO "voter_state" AS s ("user_id", "round_prompt_id", "round_candidate_a_id", "round_candidate_b_id", "round_opened_at", "round_open", "recent_prompt_ids", "recent_candidate_ids")
SELECT h."voter_id", o."prompt_id", o."candidate_a_id", o."candidate_b_id", o."created_at", o."id" IS NOT NULL, h."prompts", h."candidates"
FROM "history" h
LEFT JOIN "rounds" o ON o."voter_id" = h."voter_id" AND o."status" = 'open'
ON CONFLICT ("user_id") DO UPDATE SET
  "round_prompt_id" = excluded."round_prompt_id",
  "round_candidate_a_id" = excluded."round_candidate_a_id",
  "round_candidate_b_id" = excluded."round_candidate_b_id",
  "round_opened_at" = excluded."round_opened_at",
  "round_open" = excluded."round_open",
  "recent_prompt_ids" = excluded."recent_prompt_ids",
  "recent_candidate_ids" = excluded."recent_candidate_ids";--> statement-breakpoint
-- rounds keeps the rounds that ended; the open ones now live on voter_state.
DELETE FROM "rounds" WHERE "status" = 'open';--> statement-breakpoint
DROP INDEX "rounds_one_open_per_voter";--> statement-breakpoint
ALTER TABLE "rounds" ALTER COLUMN "status" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "rounds" ADD CONSTRAINT "rounds_ended" CHECK ("rounds"."status" <> 'open');--> statement-breakpoint
ALTER TABLE "voter_state" ADD CONSTRAINT "voter_state_round_complete" CHECK (not "voter_state"."round_open" or ("voter_state"."round_prompt_id" is not null and "voter_state"."round_candidate_a_id" is not null and "voter_state"."round_candidate_b_id" is not null and "voter_state"."round_opened_at" is not null));--> statement-breakpoint
ALTER TABLE "voter_state" ADD CONSTRAINT "voter_state_round_distinct_candidates" CHECK ("voter_state"."round_candidate_a_id" <> "voter_state"."round_candidate_b_id");--> statement-breakpoint
ALTER TABLE "voter_state" ADD CONSTRAINT "voter_state_round_voter_not_candidate" CHECK ("voter_state"."user_id" <> "voter_state"."round_candidate_a_id" and "voter_state"."user_id" <> "voter_state"."round_candidate_b_id");--> statement-breakpoint
-- A vote no longer points at a round row: the vote's own update of voter_state closes the round, once.
-- It records the other candidate instead (shown beside the recipient); older votes' rounds stay in rounds.
ALTER TABLE "votes" DROP CONSTRAINT "votes_round_id_unique";--> statement-breakpoint
ALTER TABLE "votes" DROP CONSTRAINT "votes_round_id_rounds_id_fk";--> statement-breakpoint
ALTER TABLE "votes" DROP COLUMN "round_id";--> statement-breakpoint
ALTER TABLE "votes" ADD COLUMN "shown_with_id" uuid;
