-- The class years a student may choose follow the date (1 July turns the academic year), which a check
-- cannot; the database keeps a plausible range, wider than before, so the previous release's writes still pass.
ALTER TABLE "users" DROP CONSTRAINT "users_graduation_year_range";--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_graduation_year_range" CHECK ("users"."graduation_year" between 2025 and 2100);