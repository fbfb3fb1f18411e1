ALTER TABLE "realm_user_links" ADD COLUMN "redirect_uri" text;--> statement-breakpoint
ALTER TABLE "realm_users" ADD COLUMN "confirmation_pending" boolean DEFAULT false NOT NULL;