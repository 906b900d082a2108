-- Votes after this time are the new ones the home screen counts. now() is stable, so existing rows take the
-- column's creation time without a table rewrite, and existing students start from zero new votes.
ALTER TABLE "users" ADD COLUMN "inbox_opened_at" timestamp with time zone DEFAULT now() NOT NULL;