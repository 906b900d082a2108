ALTER TABLE "users" ADD COLUMN "school_email_canonical" text;--> statement-breakpoint
-- Proofs that no longer hold: an address at a domain the school does not list exactly (any
-- subdomain used to count) or at an alumni domain. The student proves again on their next visit.
UPDATE "users" u SET "school_email" = NULL, "school_email_domain" = NULL, "school_verified_at" = NULL, "updated_at" = now()
WHERE u."school_email" IS NOT NULL AND (
  NOT EXISTS (
    SELECT 1 FROM "school_email_domains" d
    WHERE d."school_id" = u."school_id" AND d."domain" = split_part(u."school_email", '@', 2)
  )
  OR split_part(u."school_email", '@', 2) ~ '(^|[.])(alum|alums|alumni|alumnae|alumnus|alumna|alumni-[a-z0-9-]*|[a-z0-9-]*-alumni)([.]|$)'
);--> statement-breakpoint
-- One mailbox, one account: where one local part proved several accounts of a school through its
-- alias domains, the first proof stays and the later ones are cleared.
UPDATE "users" u SET "school_email" = NULL, "school_email_domain" = NULL, "school_verified_at" = NULL, "updated_at" = now()
FROM (
  SELECT u2."id", row_number() OVER (
    PARTITION BY split_part(u2."school_email", '@', 1) || '@' || lower(s."domain")
    ORDER BY u2."school_verified_at", u2."id"
  ) AS n
  FROM "users" u2 JOIN "schools" s ON s."id" = u2."school_id"
  WHERE u2."school_email" IS NOT NULL
) r
WHERE r."id" = u."id" AND r.n > 1;--> statement-breakpoint
UPDATE "users" u SET "school_email_canonical" = split_part(u."school_email", '@', 1) || '@' || lower(s."domain")
FROM "schools" s
WHERE s."id" = u."school_id" AND u."school_email" IS NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_school_email_canonical_unique" UNIQUE("school_email_canonical");--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_school_email_canonical_whole" CHECK (("users"."school_email" is null) = ("users"."school_email_canonical" is null) and split_part("users"."school_email_canonical", '@', 1) = split_part("users"."school_email", '@', 1));
