CREATE TABLE "flash_sale_offers" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	CONSTRAINT "flash_sale_offers_ends_after_start" CHECK ("flash_sale_offers"."ends_at" > "flash_sale_offers"."started_at")
);
--> statement-breakpoint
ALTER TABLE "flash_sale_offers" ADD CONSTRAINT "flash_sale_offers_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;